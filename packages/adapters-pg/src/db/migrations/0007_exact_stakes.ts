import { Effect } from "effect"
import { currencyCodes, minorUnits } from "@gateway/domain/Currency"
import { maxStakeMinor } from "@gateway/domain/Money"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Stake limits become exact: `minimum_stake` and `maximum_stake` change from
 * `double precision` to `numeric` (major units of the merchant's currency).
 * A double becomes the decimal of its first 15 significant digits, which
 * gives back what the operator sent (`0.1 + 0.2` stored as a double becomes
 * `0.3`). Each limit is then rounded half up to the digits of its
 * merchant's currency (EUR `0.125` → `0.13`, JPY `1.5` → `2`), which is what
 * the stake check did before with `Math.round`; one that rounds to 0 becomes
 * the currency's smallest unit, and one above the largest stake becomes the
 * largest stake, 10^15 − 1 minor units. Rounding, raising and capping are all
 * monotone, so `minimum_stake <= maximum_stake` still holds.
 */
export const m0007_exact_stakes = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    ALTER TABLE merchant_settings
      ALTER COLUMN minimum_stake TYPE numeric USING minimum_stake::numeric,
      ALTER COLUMN maximum_stake TYPE numeric USING maximum_stake::numeric`
  const others = currencyCodes.filter((code) => minorUnits(code) !== 2)
  if (others.some((code) => !/^[A-Z]{3}$/.test(code))) return yield* Effect.die("unexpected currency code")
  const digits = sql.literal(others.map((code) => `('${code}', ${minorUnits(code)})`).join(", "))
  const exact = (column: string) =>
    sql.literal(`CASE WHEN s.${column} IS NULL THEN NULL ELSE
      least(greatest(round(s.${column}, c.digits), round(1::numeric / power(10::numeric, c.digits), c.digits)),
        round(${maxStakeMinor}::numeric / power(10::numeric, c.digits), c.digits)) END`)
  yield* sql`
    UPDATE merchant_settings s
    SET minimum_stake = ${exact("minimum_stake")}, maximum_stake = ${exact("maximum_stake")}
    FROM (
      SELECT m.id, coalesce(d.digits, 2) AS digits
      FROM merchants m LEFT JOIN (VALUES ${digits}) AS d (currency, digits) ON d.currency = m.currency
    ) AS c
    WHERE c.id = s.merchant_id AND (s.minimum_stake IS NOT NULL OR s.maximum_stake IS NOT NULL)`
})
