import { PgClient } from "@effect/sql-pg"
import { type Cause, Context, Duration, Effect, Layer, PubSub, type Queue, Schema, type Scope, Stream } from "effect"
import type { PgConnection } from "@effect/sql-pg"
import type { SqlError } from "effect/sql/SqlError"
import { SqlClient } from "effect/sql/SqlClient"

/** The channel the triggers of migration 0005 notify. */
export const channel = "gateway_changes"

/** What can change under an instance's feet. */
export type Topic = "games" | "merchants" | "api_keys"
const topics: ReadonlyArray<Topic> = ["games", "merchants", "api_keys"]

/** One change: of the row with `key` (a game id, merchant id or key slug), or of anything of the topic (`key` absent). */
export interface Change {
  readonly topic: Topic
  readonly key?: string | undefined
}

/**
 * Changes to the games, merchants and API keys made by any instance (this
 * one included), for the in-memory copies to forget or reload what changed.
 * Delivered by PostgreSQL LISTEN/NOTIFY at commit, within milliseconds; as a
 * safety net the topics' versions are read every `checkEvery`, and a topic
 * whose version is still ahead of every notification one check later (a
 * notification was lost) is announced as changed as a whole — as is every
 * topic whenever the listening connection is re-made.
 */
export class ChangeFeed extends Context.Service<ChangeFeed, {
  /** The changes from now on, for the life of the scope. */
  readonly subscribe: Effect.Effect<PubSub.Subscription<Change>, never, Scope.Scope>
}>()("@gateway/adapters-pg/cache/ChangeFeed") {}

const VersionRows = Schema.Array(Schema.Struct({ topic: Schema.String, version: Schema.BigInt }))
const decodeVersions = Schema.decodeUnknownEffect(VersionRows)

const isTopic = (text: string): text is Topic => topics.some((t) => t === text)

/** A notification `<topic>:<version>:<key>`; undefined when it is not one. */
export const parse = (payload: string): { readonly change: Change; readonly version: bigint } | undefined => {
  const [topic = "", version = "", key = ""] = payload.split(":")
  if (!isTopic(topic) || !/^\d{1,19}$/.test(version) || key === "") return undefined
  return { change: key === "*" ? { topic } : { topic, key }, version: BigInt(version) }
}

/** The feed on the database of the `PgClient`, listening once it is made; `checkEvery` defaults to 5 seconds. */
export const make = Effect.fnUntraced(function*(options: { readonly checkEvery?: Duration.Input | undefined } = {}) {
  const pg = yield* PgClient.PgClient
  const sql = yield* SqlClient
  const pubsub = yield* Effect.acquireRelease(PubSub.unbounded<Change>(), PubSub.shutdown)
  const seen = new Map<Topic, bigint>()
  const publish = (change: Change) => PubSub.publish(pubsub, change)
  const everything = Effect.forEach(topics, (topic) => publish({ topic }), { discard: true })

  const readVersions = sql`SELECT topic, version FROM gateway_versions`.pipe(Effect.flatMap(decodeVersions))
  for (const row of yield* Effect.orDie(readVersions)) if (isTopic(row.topic)) seen.set(row.topic, row.version)

  const behind = new Map<Topic, bigint>()
  const check = Effect.gen(function*() {
    for (const row of yield* readVersions) {
      if (!isTopic(row.topic)) continue
      const missed = behind.get(row.topic)
      behind.delete(row.topic)
      if (missed !== undefined && missed > (seen.get(row.topic) ?? 0n)) {
        seen.set(row.topic, row.version)
        yield* publish({ topic: row.topic })
      } else if (row.version > (seen.get(row.topic) ?? 0n)) {
        behind.set(row.topic, row.version)
      }
    }
  })

  const notified = (payload: string) =>
    Effect.suspend(() => {
      const parsed = parse(payload)
      if (parsed === undefined) return Effect.void
      if (parsed.version > (seen.get(parsed.change.topic) ?? 0n)) seen.set(parsed.change.topic, parsed.version)
      return Effect.asVoid(publish(parsed.change))
    })

  const consume = (queue: Queue.Dequeue<PgConnection.Notification, SqlError>) =>
    Stream.fromQueue(queue).pipe(Stream.runForEach((notification) => notified(notification.payload)))
  const stopped = (cause: Cause.Cause<unknown>) =>
    Effect.logWarning(`LISTEN ${channel} stopped; listening again`, cause).pipe(Effect.andThen(Effect.sleep("1 second")))
  const listenAgain = Effect.scoped(
    Effect.flatMap(pg.listen(channel), (queue) => Effect.andThen(everything, consume(queue)))
  ).pipe(Effect.catchCause(stopped), Effect.forever)
  const listening = yield* Effect.orDie(pg.listen(channel))
  yield* consume(listening).pipe(Effect.catchCause(stopped), Effect.andThen(listenAgain), Effect.forkScoped)
  const checkEvery = options.checkEvery ?? Duration.seconds(5)
  yield* check.pipe(
    Effect.catchCause((cause) => Effect.logWarning("reading gateway_versions failed", cause)),
    Effect.delay(checkEvery),
    Effect.forever,
    Effect.forkScoped
  )
  return ChangeFeed.of({ subscribe: PubSub.subscribe(pubsub) })
})

/**
 * Runs `react`, for the life of the scope, on every change of `topic` the
 * feed reports: with the changed row's key, or undefined when the whole topic
 * changed (what an in-memory copy of the rows must forget).
 */
export const onChanges = (topic: Topic, react: (key: string | undefined) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const changes = yield* (yield* ChangeFeed).subscribe
    const apply = (change: Change) => change.topic !== topic ? Effect.void : react(change.key)
    yield* PubSub.takeAll(changes).pipe(
      Effect.flatMap((batch) => Effect.forEach(batch, apply, { discard: true })),
      Effect.forever,
      Effect.forkScoped
    )
  })

/** {@link make} as a layer: one LISTEN connection and one version check for every in-memory copy. */
export const layer = (
  options: { readonly checkEvery?: Duration.Input | undefined } = {}
): Layer.Layer<ChangeFeed, never, PgClient.PgClient | SqlClient> => Layer.effect(ChangeFeed, make(options))
