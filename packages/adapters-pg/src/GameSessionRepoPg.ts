import { CurrencyCode } from "@gateway/domain/Currency"
import { GameSession, SessionExpired, SessionRtp } from "@gateway/domain/GameSession"
import type { LaunchClaims } from "@gateway/domain/LaunchToken"
import { LaunchMode, TokenAlreadyUsed } from "@gateway/domain/LaunchToken"
import { MerchantId } from "@gateway/domain/Merchant"
import { SessionEnded } from "@gateway/domain/SessionControl"
import type { SessionSeed } from "@gateway/domain/Fairness"
import { SeedRotated } from "@gateway/domain/Fairness"
import type { DemoRound } from "@gateway/domain/ports/GameSessionRepo"
import { GameSessionRepo } from "@gateway/domain/ports/GameSessionRepo"
import { InsufficientFunds } from "@gateway/domain/Wallet"
import { sessionStartedBody } from "@gateway/domain/Callback"
import * as Money from "@gateway/domain/Money"
import { DateTime, Effect, Layer, Redacted, Result, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { createHash, randomBytes, randomUUID } from "node:crypto"
import * as Outbox from "./db/Outbox.ts"
import * as AutoplayRows from "./db/AutoplayRows.ts"
import { whyNotLive } from "./db/SessionEnd.ts"

/** How long a session lives without being used. */
export interface GameSessionRepoPgOptions {
  readonly idleSeconds: number
}

/** An authenticate pushes the idle expiry forward only when the session was last seen longer ago than this. */
export const touchAfterSeconds = 60

/** Sessions `recall` keeps in memory (what never changes about them, by token hash): the most recently first seen. */
export const recalledSessions = 10_000

const SessionRow = Schema.Struct({
  id: Schema.String,
  merchant_id: MerchantId,
  player_id: Schema.String,
  game_id: Schema.String,
  operator_session_id: Schema.String,
  currency: CurrencyCode,
  mode: LaunchMode,
  lobby: Schema.Boolean,
  created_at: Schema.DateTimeUtcFromDate,
  expires_at: Schema.DateTimeUtcFromDate,
  shop_id: Schema.NullOr(Schema.String),
  shop_name: Schema.NullOr(Schema.String),
  shop_minimum_stake_minor: Schema.NullOr(Schema.BigInt),
  shop_maximum_stake_minor: Schema.NullOr(Schema.BigInt),
  rtp: Schema.NullOr(SessionRtp)
})
const decodeSessions = Schema.decodeUnknownEffect(Schema.Array(SessionRow))
const decodeEnded = Schema.decodeUnknownEffect(
  Schema.Array(Schema.Struct({ ...SessionRow.fields, ended_reason: Schema.NullOr(Schema.String) }))
)
const decodeBalances = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ balance: Schema.BigInt })))
const SeedRow = Schema.Struct({
  server_seed: Schema.String,
  server_seed_hash: Schema.String,
  client_seed: Schema.String,
  nonce: Schema.Number
})
const decodeSeeds = Schema.decodeUnknownEffect(Schema.Array(SeedRow))

/** The shop of a session's row (CONTRACT §11), its stake limits as decimal strings of the session's currency. */
const shopOf = (row: typeof SessionRow.Type) => {
  if (row.shop_id === null) return {}
  const format = (minor: bigint | null) => minor === null ? undefined : Money.format(Money.make(minor, row.currency))
  const minimumStake = format(row.shop_minimum_stake_minor)
  const maximumStake = format(row.shop_maximum_stake_minor)
  return {
    shop: {
      shopId: row.shop_id,
      name: row.shop_name ?? row.shop_id,
      ...(minimumStake === undefined ? {} : { minimumStake }),
      ...(maximumStake === undefined ? {} : { maximumStake })
    }
  }
}

/** A shop stake limit of the launch's claims (a decimal string of its currency) in minor units; null when none. */
const limitMinor = (text: string | undefined, currency: CurrencyCode): bigint | null => {
  if (text === undefined) return null
  const parsed = Money.parse(text, currency)
  return Result.isSuccess(parsed) ? parsed.success.minor : null
}

const sessionOf = (row: typeof SessionRow.Type) =>
  new GameSession({
    id: row.id,
    merchantId: row.merchant_id,
    playerId: row.player_id,
    gameId: row.game_id,
    operatorSessionId: row.operator_session_id,
    currency: row.currency,
    mode: row.mode,
    lobby: row.lobby,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    ...shopOf(row),
    ...(row.rtp === null ? {} : { rtp: row.rtp })
  })

/** SHA-256 of a session token; the token is 32 random bytes, so a fast hash suffices. */
export const hashToken = (token: string): Buffer => createHash("sha256").update(token, "utf8").digest()

const isRedeemed = (error: SqlError): boolean =>
  error.reason._tag === "UniqueViolation" && error.reason.constraint === "launch_redemptions_pkey"

const shopColumns = "shop_id, shop_name, shop_minimum_stake_minor, shop_maximum_stake_minor"
const columns = "id, merchant_id, player_id, game_id, operator_session_id, currency, mode, lobby, created_at, expires_at, " +
  `${shopColumns}, rtp`

/**
 * {@link GameSessionRepo} on PostgreSQL. A launch token's `jti` is redeemed by
 * inserting it into `launch_redemptions`: the primary key makes a second
 * redemption fail even when two instances redeem at the same instant. The
 * session token is 32 random bytes (base64url) and only its SHA-256 is stored.
 */
export const make = Effect.fnUntraced(function*(options: GameSessionRepoPgOptions) {
  const sql = yield* SqlClient
  const idle = sql.literal(`make_interval(secs => ${Math.trunc(options.idleSeconds)})`)
  const cols = sql.literal(columns)

  const open = Effect.fn("GameSessionRepo.open")(function*(
    claims: LaunchClaims,
    demoBalanceMinor: bigint,
    seed: SessionSeed,
    claimed = false,
    reported = false,
    rtp?: Readonly<Record<string, string>>
  ) {
    const token = randomBytes(32).toString("base64url")
    const insert = sql`
        INSERT INTO game_sessions (id, token_hash, merchant_id, player_id, game_id, operator_session_id, currency, mode,
          lobby, demo_balance_minor, expires_at, server_seed, client_seed, shop_id, shop_name, shop_minimum_stake_minor,
          shop_maximum_stake_minor, rtp)
        VALUES (${randomUUID()}, ${hashToken(token)}, ${claims.mid}, ${claims.sub}, ${claims.gid}, ${claims.sid},
          ${claims.cur}, ${claims.mode}, ${claims.lobby}, ${claims.mode === "demo" ? demoBalanceMinor : null},
          now() + ${idle}, ${seed.serverSeed}, ${seed.clientSeed}, ${claims.shop ?? null},
          ${claims.shop === undefined ? null : claims.shn ?? claims.shop}, ${limitMinor(claims.smin, claims.cur)},
          ${limitMinor(claims.smax, claims.cur)}, ${rtp === undefined ? null : JSON.stringify(rtp)}::jsonb)
        RETURNING ${cols}`
    const started = reported
      ? insert.pipe(Effect.tap(() => Effect.flatMap(DateTime.now, (now) => Outbox.enqueue(sql, Outbox.ofCallback(
        claims.mid,
        sessionStartedBody(
          {
            merchantId: claims.mid,
            playerId: claims.sub,
            sessionId: claims.sid,
            gameId: claims.gid,
            currency: claims.cur,
            ...(claims.shop === undefined ? {} : { shopId: claims.shop })
          },
          DateTime.formatIso(now)
        )
      )))))
      : insert
    const rows = yield* (claimed && !reported
      ? insert
      : sql.withTransaction(
        claimed ? started : sql`INSERT INTO launch_redemptions (jti) VALUES (${claims.jti})`.pipe(Effect.andThen(started))
      ))
      .pipe(Effect.flatMap(decodeSessions))
    const [row] = rows
    if (row === undefined) return yield* Effect.die("INSERT … RETURNING gave no row")
    return { session: sessionOf(row), sessionToken: Redacted.make(token, { label: "SessionToken" }) }
  }, Effect.catchTag("SqlError", (error) => isRedeemed(error) ? Effect.fail(new TokenAlreadyUsed()) : Effect.die(error)),
    Effect.catchTag("SchemaError", Effect.die))

  const claim = Effect.fn("GameSessionRepo.claim")(
    function*(jti: string) {
      yield* sql`INSERT INTO launch_redemptions (jti) VALUES (${jti})`
    },
    Effect.catchTag("SqlError", (error) => isRedeemed(error) ? Effect.fail(new TokenAlreadyUsed()) : Effect.die(error))
  )

  const release = Effect.fn("GameSessionRepo.release")(
    function*(jti: string) {
      yield* sql`DELETE FROM launch_redemptions WHERE jti = ${jti}`
    },
    Effect.catchTag("SqlError", Effect.die)
  )

  const authenticate = Effect.fn("GameSessionRepo.authenticate")(function*(sessionToken: string) {
    const [row] = yield* sql`
      WITH live AS (
        SELECT ${cols}, last_seen_at FROM game_sessions WHERE token_hash = ${hashToken(sessionToken)} AND expires_at > now()
      ), touched AS (
        UPDATE game_sessions g SET last_seen_at = now(), expires_at = now() + ${idle}
        -- g.expires_at again: a termination committed meanwhile is seen (the row is read again once locked).
        FROM live WHERE g.id = live.id AND g.expires_at > now()
          AND live.last_seen_at < now() - make_interval(secs => ${touchAfterSeconds})
        RETURNING g.id, g.expires_at
      )
      SELECT live.id, merchant_id, player_id, game_id, operator_session_id, currency, mode, lobby, created_at,
        coalesce(touched.expires_at, live.expires_at) AS expires_at, ${sql.literal(shopColumns)}, rtp
      FROM live LEFT JOIN touched ON touched.id = live.id`.pipe(Effect.flatMap(decodeSessions))
    if (row === undefined) return yield* whyNotLive(sql, sql`token_hash = ${hashToken(sessionToken)}`)
    return sessionOf(row)
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  // What never changes about a session, by its token's hash, and when it was last authenticated: its liveness is
  // checked by the statement that takes each round's nonce, and it is authenticated again (which pushes its idle
  // expiry forward) once it was last more than `touchAfterSeconds` ago.
  const recalled = new Map<string, { readonly session: GameSession; readonly at: number }>()
  const recall = (sessionToken: string): Effect.Effect<GameSession, SessionExpired | SessionEnded> => {
    const key = hashToken(sessionToken).toString("base64")
    const known = recalled.get(key)
    const now = Date.now()
    if (known !== undefined && now - known.at < touchAfterSeconds * 1000) return Effect.succeed(known.session)
    return Effect.tap(authenticate(sessionToken), (session) =>
      Effect.sync(() => {
        recalled.delete(key)
        if (recalled.size >= recalledSessions) recalled.delete(recalled.keys().next().value ?? key)
        recalled.set(key, { session, at: now })
      }))
  }

  const demoBalance = Effect.fn("GameSessionRepo.demoBalance")(function*(sessionId: string) {
    const [row] = yield* sql`
      SELECT demo_balance_minor AS balance FROM game_sessions WHERE id = ${sessionId} AND demo_balance_minor IS NOT NULL`
      .pipe(Effect.flatMap(decodeBalances))
    if (row === undefined) return yield* Effect.die(new Error(`no demo session ${sessionId}`))
    return row.balance
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const identify = Effect.fn("GameSessionRepo.identify")(function*(sessionToken: string) {
    const [row] = yield* sql`
      SELECT ${cols}, ended_reason FROM game_sessions WHERE token_hash = ${hashToken(sessionToken)}`.pipe(
      Effect.flatMap(decodeEnded)
    )
    if (row === undefined) return yield* new SessionExpired()
    if (row.ended_reason === "terminated") return yield* new SessionEnded()
    return sessionOf(row)
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  // The row is written anyway for the nonce: its idle expiry is pushed forward on every round.
  const nextSeed = Effect.fn("GameSessionRepo.nextSeed")(function*(sessionId: string) {
    const [row] = yield* sql`
      UPDATE game_sessions SET nonce = nonce + 1, last_seen_at = now(), expires_at = now() + ${idle}
      WHERE id = ${sessionId} AND expires_at > now()
      RETURNING server_seed, server_seed_hash, client_seed, (nonce - 1)::float8 AS nonce`.pipe(
      Effect.flatMap(decodeSeeds)
    )
    if (row === undefined) return yield* whyNotLive(sql, sql`id = ${sessionId}`)
    return { serverSeed: row.server_seed, serverSeedHash: row.server_seed_hash, clientSeed: row.client_seed, nonce: row.nonce }
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const rotate = Effect.fn("GameSessionRepo.rotate")(function*(sessionId: string, next: SessionSeed) {
    const [old] = yield* sql.withTransaction(Effect.gen(function*() {
      // The subquery's row lock makes a concurrent round's nonce count: it reads the row as last committed.
      const rows = yield* sql`
        UPDATE game_sessions g SET server_seed = ${next.serverSeed}, client_seed = ${next.clientSeed}, nonce = 0
        FROM (SELECT id, server_seed, server_seed_hash, client_seed, nonce FROM game_sessions WHERE id = ${sessionId}
          FOR UPDATE) old
        WHERE g.id = old.id
        RETURNING old.server_seed, old.server_seed_hash, old.client_seed, old.nonce::float8 AS nonce`.pipe(
        Effect.flatMap(decodeSeeds)
      )
      for (const row of rows) {
        yield* sql`
          INSERT INTO revealed_seeds (server_seed_hash, session_id, server_seed, client_seed, nonces)
          VALUES (${row.server_seed_hash}, ${sessionId}, ${row.server_seed}, ${row.client_seed}, ${row.nonce})`
      }
      return rows
    }))
    if (old === undefined) return yield* Effect.die(new Error(`no session ${sessionId}`))
    return new SeedRotated({
      previous: {
        serverSeed: old.server_seed,
        serverSeedHash: old.server_seed_hash,
        clientSeed: old.client_seed,
        nonces: old.nonce
      },
      current: { serverSeedHash: next.serverSeedHash, clientSeed: next.clientSeed, nonce: 0 }
    })
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const commitment = Effect.fn("GameSessionRepo.commitment")(function*(sessionId: string) {
    const [row] = yield* sql`
      SELECT server_seed, server_seed_hash, client_seed, nonce::float8 AS nonce FROM game_sessions WHERE id = ${sessionId}`
      .pipe(Effect.flatMap(decodeSeeds))
    if (row === undefined) return yield* Effect.die(new Error(`no session ${sessionId}`))
    return { serverSeedHash: row.server_seed_hash, clientSeed: row.client_seed, nonce: row.nonce }
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const settleDemo = Effect.fn("GameSessionRepo.settleDemo")(function*(sessionId: string, round: DemoRound) {
    const { stake, payout, seed } = round
    if (stake < 0n || payout < 0n) return yield* Effect.die(new Error("stake and payout must not be negative"))
    const [row] = yield* sql`
      WITH moved AS (
        UPDATE game_sessions SET demo_balance_minor = demo_balance_minor - ${stake} + ${payout}
        WHERE id = ${sessionId} AND demo_balance_minor >= ${stake}
        RETURNING demo_balance_minor AS balance, merchant_id
      ), recorded AS (
        INSERT INTO rounds (id, session_id, merchant_id, game_id, mode, stake_minor, selection, status, outcome,
          payout_minor, server_seed_hash, client_seed, nonce)
        SELECT ${round.roundId}, ${sessionId}, merchant_id, ${round.gameId}, 'demo', ${stake}, ${round.selection},
          'settled', ${round.outcome}, ${payout}, ${seed.serverSeedHash}, ${seed.clientSeed}, ${seed.nonce}
        FROM moved
      )
      SELECT balance FROM moved`.pipe(Effect.flatMap(decodeBalances))
    if (row === undefined) return yield* new InsufficientFunds()
    return row.balance
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  // Setting `expires_at` is what ends them: every statement that needs a live session already checks it.
  const terminate = Effect.fn("GameSessionRepo.terminate")(function*(
    merchantId: MerchantId,
    playerId: string,
    operatorSessionId: string | undefined
  ) {
    const rows = yield* sql`
      UPDATE game_sessions SET expires_at = now(), ended_at = now(), ended_reason = 'terminated'
      WHERE merchant_id = ${merchantId} AND player_id = ${playerId} AND expires_at > now()
        ${operatorSessionId === undefined ? sql`` : sql`AND operator_session_id = ${operatorSessionId}`}
      RETURNING ${cols}`.pipe(Effect.flatMap(decodeSessions))
    return rows.map(sessionOf)
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const startAutoplay = Effect.fn("GameSessionRepo.startAutoplay")(AutoplayRows.start(sql), Effect.catchTag("SqlError", Effect.die))
  const takeAutoplayRound = Effect.fn("GameSessionRepo.takeAutoplayRound")(
    AutoplayRows.take(sql),
    Effect.catchTag("SqlError", Effect.die)
  )
  const countAutoplayLoss = Effect.fn("GameSessionRepo.countAutoplayLoss")(
    AutoplayRows.countLoss(sql),
    Effect.catchTag("SqlError", Effect.die)
  )

  return GameSessionRepo.of({
    open,
    claim,
    release,
    authenticate,
    recall,
    identify,
    nextSeed,
    rotate,
    commitment,
    demoBalance,
    settleDemo,
    terminate,
    startAutoplay,
    takeAutoplayRound,
    countAutoplayLoss
  })
})

/** The repository with an explicit idle expiry (tests, or apps that read their own config). */
export const layer = (options: GameSessionRepoPgOptions): Layer.Layer<GameSessionRepo, never, SqlClient> =>
  Layer.effect(GameSessionRepo, make(options))
