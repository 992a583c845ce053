import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Retail shops (CONTRACT §11): a session launched with a `shopId` keeps the shop's id, its name and the stake
 * limits it adds to the merchant's (minor units of the session's currency), as the operator's `shopDetailsUrl`
 * gave them at launch. Rounds reach their shop through their session, so the bet path writes nothing new.
 *
 * The index serves the reports' `shopId` filter and `groupBy=shop` (the merchant's sessions of a shop, then their
 * rounds by `rounds_session_idx`); partial, so online play (no shop) costs it nothing. Adding nullable columns
 * without defaults rewrites nothing; the index build blocks launches about a second per million sessions, as 0012.
 */
export const m0018_shops = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    ALTER TABLE game_sessions
      ADD COLUMN IF NOT EXISTS shop_id text,
      ADD COLUMN IF NOT EXISTS shop_name text,
      ADD COLUMN IF NOT EXISTS shop_minimum_stake_minor bigint,
      ADD COLUMN IF NOT EXISTS shop_maximum_stake_minor bigint`
  yield* sql`
    CREATE INDEX IF NOT EXISTS game_sessions_merchant_shop_idx ON game_sessions (merchant_id, shop_id)
    WHERE shop_id IS NOT NULL`
})
