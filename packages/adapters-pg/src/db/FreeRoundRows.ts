import type { FreeRoundStart } from "@gateway/domain/ports/FreeRounds"
import { Schema } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"

/** A grant's columns as the operator sees them: `remaining` is 0 and `status` says why once none can be played. */
export const grantColumns = (sql: SqlClient) => sql`
  id::text AS id, campaign_id, player_id, game_id, rounds,
  CASE WHEN cancelled_at IS NOT NULL OR expires_at <= now() THEN 0 ELSE remaining END AS remaining,
  stake_minor, currency, expires_at, created_at,
  CASE WHEN cancelled_at IS NOT NULL THEN 'cancelled' WHEN remaining = 0 THEN 'used'
    WHEN expires_at <= now() THEN 'expired' ELSE 'active' END AS status`

/** The grant rows of {@link grantColumns}. */
export const GrantRow = Schema.Struct({
  id: Schema.String,
  campaign_id: Schema.String,
  player_id: Schema.String,
  game_id: Schema.String,
  rounds: Schema.Number,
  remaining: Schema.Number,
  stake_minor: Schema.BigInt,
  currency: Schema.String,
  expires_at: Schema.DateTimeUtcFromDate,
  created_at: Schema.DateTimeUtcFromDate,
  status: Schema.Literals(["active", "used", "cancelled", "expired"])
})

/** The grants a player may play now in a game, soonest to expire first: what the session offers and a round takes. */
export const playable = (sql: SqlClient, merchantId: number, playerId: string, gameId: string) => sql`
  WHERE merchant_id = ${merchantId} AND player_id = ${playerId} AND game_id = ${gameId}
    AND remaining > 0 AND cancelled_at IS NULL AND expires_at > now()
  ORDER BY expires_at, created_at`

const TakenRow = Schema.Struct({ id: Schema.String, campaign_id: Schema.String, stake_minor: Schema.BigInt, remaining: Schema.Number })
export const decodeTaken = Schema.decodeUnknownEffect(Schema.Array(TakenRow))

/**
 * Takes one round from the player's grant for the game that expires first, under the grant's row lock: a
 * concurrent round waits for the lock and then finds the grant as that round left it (`remaining > 0` checked
 * again), so a grant of n rounds gives at most n. No row: none left.
 */
export const takeRound = (sql: SqlClient, round: FreeRoundStart) =>
  sql`
    UPDATE free_round_grants g SET remaining = g.remaining - 1
    WHERE g.id = (
      SELECT id FROM free_round_grants ${playable(sql, round.merchantId, round.playerId, round.gameId)}
      LIMIT 1
      FOR UPDATE
    ) AND g.remaining > 0 AND g.cancelled_at IS NULL AND g.expires_at > now()
    RETURNING g.id::text AS id, g.campaign_id, g.stake_minor, g.remaining`

const SeedRow = Schema.Struct({
  server_seed: Schema.String,
  server_seed_hash: Schema.String,
  client_seed: Schema.String,
  nonce: Schema.Number
})
export const decodeSeed = Schema.decodeUnknownEffect(Schema.Array(SeedRow))

/** The session's next nonce, as a paid round's begin takes it (`RoundRows.beginRounds`); no row once it has ended. */
export const takeNonce = (sql: SqlClient, sessionId: string) =>
  sql`
    UPDATE game_sessions SET nonce = nonce + 1
    WHERE id = ${sessionId} AND expires_at > now()
    RETURNING server_seed, server_seed_hash, client_seed, (nonce - 1)::float8 AS nonce`

/** A free round, settled as it is recorded, with the ledger sums of the credit it books (none for a loss). */
export const insertRound = (
  sql: SqlClient,
  round: FreeRoundStart,
  played: {
    readonly grantId: string
    readonly stake: bigint
    readonly outcome: string
    readonly payout: bigint
    readonly serverSeedHash: string
    readonly clientSeed: string
    readonly nonce: number
  }
) =>
  sql`
    INSERT INTO rounds (id, session_id, merchant_id, game_id, mode, stake_minor, selection, status, outcome,
      payout_minor, free_round_grant_id, server_seed_hash, client_seed, nonce, ledger_credit_minor, ledger_entries)
    VALUES (${round.roundId}, ${round.sessionId}, ${round.merchantId}, ${round.gameId}, 'real', ${played.stake},
      ${round.selection}, 'settled', ${played.outcome}, ${played.payout}, ${played.grantId}, ${played.serverSeedHash},
      ${played.clientSeed}, ${played.nonce}, ${played.payout}, ${played.payout > 0n ? 1 : 0})`
