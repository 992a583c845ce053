import { CurrencyCode } from "@gateway/domain/Currency"
import { FreeRoundGrant, GrantNotFound, NoFreeRounds, SessionFreeRounds } from "@gateway/domain/FreeRound"
import * as Money from "@gateway/domain/Money"
import { offset, type PageRequest } from "@gateway/domain/Paging"
import { type FreeRoundDecision, FreeRounds, type FreeRoundStart, type NewGrant } from "@gateway/domain/ports/FreeRounds"
import type { RoundSeed } from "@gateway/domain/Fairness"
import type { FreeRoundTaken } from "@gateway/domain/FreeRound"
import { roundSettledBody } from "@gateway/domain/Callback"
import { RoundLinks } from "@gateway/domain/ports/RoundLinks"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { decodeSeed, decodeTaken, GrantRow, grantColumns, insertRound, playable, takeNonce, takeRound } from "./db/FreeRoundRows.ts"
import * as Outbox from "./db/Outbox.ts"
import { book } from "./db/RoundRows.ts"
import { isUuid } from "./db/Uuid.ts"
import { whyNotLive } from "./db/SessionEnd.ts"

const decodeGrants = Schema.decodeUnknownEffect(Schema.Array(GrantRow))
const decodeCurrency = Schema.decodeUnknownSync(CurrencyCode)
const decodeTotals = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ total: Schema.Number })))

const grantOf = (row: typeof GrantRow.Type): FreeRoundGrant => {
  const currency = decodeCurrency(row.currency)
  return new FreeRoundGrant({
    id: row.id,
    campaignId: row.campaign_id,
    playerId: row.player_id,
    gameId: row.game_id,
    rounds: row.rounds,
    remaining: row.remaining,
    stake: Money.format(Money.make(row.stake_minor, currency)),
    currency,
    status: row.status,
    expiresAt: row.expires_at,
    createdAt: row.created_at
  })
}

/**
 * {@link FreeRounds} on PostgreSQL: `free_round_grants` (migration 0019), and the free rounds in `rounds`, the
 * ledger and the outbox. A free round is one transaction: a round taken from its grant (row-locked), the
 * session's nonce, the round recorded settled, a win's credit booked and queued, and the round's `round.settled`
 * beside it when the merchant has a `callbackUrl` (both with the round's `roundDetailsUrl`). The paid rounds' path
 * (`RoundLedgerPg`, `db/RoundRows.ts`) is not touched.
 */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient
  // As the paid rounds' ledger: without links (tests of this adapter alone), no `roundDetailsUrl`.
  const links = Option.getOrUndefined(yield* Effect.serviceOption(RoundLinks))

  const byId = (merchantId: number, grantId: string) =>
    sql`SELECT ${grantColumns(sql)} FROM free_round_grants WHERE id = ${grantId} AND merchant_id = ${merchantId}`.pipe(
      Effect.flatMap(decodeGrants)
    )

  const grant = Effect.fn("FreeRounds.grant")(function*(grant: NewGrant) {
    const [inserted] = yield* sql`
      INSERT INTO free_round_grants (id, merchant_id, campaign_id, player_id, game_id, rounds, remaining, stake_minor,
        currency, expires_at)
      VALUES (${grant.id}, ${grant.merchantId}, ${grant.campaignId}, ${grant.playerId}, ${grant.gameId}, ${grant.rounds},
        ${grant.rounds}, ${grant.stake}, ${grant.currency}, ${DateTime.toDateUtc(grant.expiresAt)})
      ON CONFLICT (merchant_id, player_id, game_id, campaign_id) DO NOTHING
      RETURNING ${grantColumns(sql)}`.pipe(Effect.flatMap(decodeGrants))
    if (inserted !== undefined) return grantOf(inserted)
    const [first] = yield* sql`
      SELECT ${grantColumns(sql)} FROM free_round_grants
      WHERE merchant_id = ${grant.merchantId} AND player_id = ${grant.playerId} AND game_id = ${grant.gameId}
        AND campaign_id = ${grant.campaignId}`.pipe(Effect.flatMap(decodeGrants))
    if (first === undefined) return yield* Effect.die(new Error("a grant in conflict is not there"))
    return grantOf(first)
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const list = Effect.fn("FreeRounds.list")(function*(merchantId: number, playerId: string, page: PageRequest) {
    const [counted] = yield* sql`
      SELECT count(*)::float8 AS total FROM free_round_grants WHERE merchant_id = ${merchantId} AND player_id = ${playerId}`
      .pipe(Effect.flatMap(decodeTotals))
    // The table's columns, not the output's: a bare `id` there is its text (`id::text AS id`), where "10" < "9".
    const rows = yield* sql`
      SELECT ${grantColumns(sql)} FROM free_round_grants WHERE merchant_id = ${merchantId} AND player_id = ${playerId}
      ORDER BY free_round_grants.created_at DESC, free_round_grants.id DESC
      LIMIT ${page.limit} OFFSET ${offset(page)}`.pipe(Effect.flatMap(decodeGrants))
    return { grants: rows.map(grantOf), total: counted?.total ?? 0 }
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const cancel = Effect.fn("FreeRounds.cancel")(function*(merchantId: number, grantId: string) {
    if (!isUuid(grantId)) return yield* new GrantNotFound({ grantId })
    yield* sql`
      UPDATE free_round_grants SET remaining = 0, cancelled_at = now()
      WHERE id = ${grantId} AND merchant_id = ${merchantId} AND cancelled_at IS NULL AND remaining > 0
        AND expires_at > now()`
    const [row] = yield* byId(merchantId, grantId)
    if (row === undefined) return yield* new GrantNotFound({ grantId })
    return grantOf(row)
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const available = Effect.fn("FreeRounds.available")(function*(merchantId: number, playerId: string, gameId: string) {
    const rows = yield* sql`
      SELECT ${grantColumns(sql)} FROM free_round_grants ${playable(sql, merchantId, playerId, gameId)} LIMIT 20`.pipe(Effect.flatMap(decodeGrants))
    return rows.map((row) => {
      const grant = grantOf(row)
      return new SessionFreeRounds({
        grantId: grant.id,
        campaignId: grant.campaignId,
        remaining: grant.remaining,
        stake: grant.stake,
        expiresAt: grant.expiresAt
      })
    })
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const play = <D extends FreeRoundDecision>(round: FreeRoundStart, decide: (seed: RoundSeed, taken: FreeRoundTaken) => D) =>
    sql.withTransaction(Effect.gen(function*() {
      const [grantRow] = yield* takeRound(sql, round).pipe(Effect.flatMap(decodeTaken))
      if (grantRow === undefined) return yield* new NoFreeRounds()
      const [seedRow] = yield* takeNonce(sql, round.sessionId).pipe(Effect.flatMap(decodeSeed))
      if (seedRow === undefined) return yield* whyNotLive(sql, sql`id = ${round.sessionId}`)
      const seed: RoundSeed = {
        serverSeed: seedRow.server_seed,
        serverSeedHash: seedRow.server_seed_hash,
        clientSeed: seedRow.client_seed,
        nonce: seedRow.nonce
      }
      const taken: FreeRoundTaken = {
        grantId: grantRow.id,
        campaignId: grantRow.campaign_id,
        stake: grantRow.stake_minor,
        remaining: grantRow.remaining
      }
      const decision = decide(seed, taken)
      yield* insertRound(sql, round, {
        grantId: taken.grantId,
        stake: taken.stake,
        outcome: decision.outcomeJson,
        payout: decision.payout,
        serverSeedHash: seed.serverSeedHash,
        clientSeed: seed.clientSeed,
        nonce: seed.nonce
      })
      const roundDetailsUrl = links?.url(round.roundId)
      const credit = decision.credit
      if (credit !== undefined) {
        yield* book(sql, round.roundId, "credit", credit.transactionId, credit.amount.minor, credit.amount.currency)
        yield* Outbox.enqueue(sql, yield* Outbox.ofTransaction({ ...credit, roundDetailsUrl }))
      }
      if (decision.reported !== undefined) {
        const body = roundSettledBody(decision.reported, roundDetailsUrl ?? "", DateTime.formatIso(yield* DateTime.now))
        yield* Outbox.enqueue(sql, Outbox.ofCallback(round.merchantId, body))
      }
      return { decision, seed, taken }
    })).pipe(
      Effect.withSpan("FreeRounds.play"),
      Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die })
    )

  return FreeRounds.of({ grant, list, cancel, available, play })
})

/** Free rounds on the database of the `SqlClient`. */
export const layer: Layer.Layer<FreeRounds, never, SqlClient> = Layer.effect(FreeRounds, make)
