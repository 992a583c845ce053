import { Drain } from "@gateway/adapters-http"
import { Database } from "@gateway/adapters-pg"
import { Effect, Layer, Option } from "effect"
import manifest from "../package.json" with { type: "json" }
import type { GatewayConfig } from "./Config.ts"

/** The gateway's version: the server package's (`apps/server/package.json`), the one a release is named after. */
export const version: string = manifest.version

/**
 * Once everything is up, one line: `gateway started` with the version, the
 * database mode (`external` with `DATABASE_URL`, else `embedded`) and the
 * instance id (the `application_name` of its connections in
 * `pg_stat_activity`). Its finalizer is the first to run when the gateway
 * is stopped (SIGTERM): `/ready` answers 503 at once ({@link Drain}) while
 * the listener still accepts and serves, for `SHUTDOWN_DRAIN_SECONDS`; the
 * rest of the gateway closes after it (the listener, in-flight requests,
 * the jobs, the pool).
 */
export const running = (config: GatewayConfig): Layer.Layer<never> =>
  Layer.effectDiscard(Effect.gen(function*() {
    const drain = yield* Drain.Drain
    yield* Effect.logInfo("gateway started").pipe(Effect.annotateLogs({
      version,
      database: Option.isSome(config.databaseUrl) ? "external" : "embedded",
      instance: Database.applicationName,
      port: config.port,
      startMs: Math.round(performance.now())
    }))
    yield* Effect.addFinalizer(() =>
      drain.begin.pipe(
        Effect.andThen(Effect.logInfo("gateway stopping").pipe(
          Effect.annotateLogs({ instance: Database.applicationName, drainSeconds: config.shutdownDrainSeconds })
        )),
        Effect.andThen(Effect.sleep(`${config.shutdownDrainSeconds} seconds`))
      )
    )
  }))

/**
 * Built before the database and released after it: `gateway stopped` once
 * everything is closed, after a drain (not when start-up fails, which says
 * so in its own line).
 */
export const stopped: Layer.Layer<never> = Layer.effectDiscard(Effect.gen(function*() {
  const drain = yield* Drain.Drain
  yield* Effect.addFinalizer(() =>
    Effect.flatMap(drain.draining, (drained) =>
      drained
        ? Effect.logInfo("gateway stopped").pipe(Effect.annotateLogs({ instance: Database.applicationName }))
        : Effect.void
    )
  )
}))
