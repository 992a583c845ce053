import { Result, Schema } from "effect"
import { Forbidden } from "./Auth.ts"
import { decimalText } from "./Money.ts"
import { ValidationFailed } from "./Validation.ts"

/**
 * The parties that share a period's GGR, in the order they are listed, and
 * in which a stored combination over 100 % is capped ({@link capped}).
 */
export const parties = ["provider", "superProvider", "agent", "merchant", "user"] as const
export type Party = (typeof parties)[number]

/** The setting that holds each party's share, as the seed names it. */
export const shareFields = {
  provider: "providerPercentProfit",
  superProvider: "superProviderPercentProfit",
  agent: "agentPercentProfit",
  merchant: "merchantPercentProfit",
  user: "userPercentProfit"
} as const satisfies Record<Party, string>

/** A setting holding a party's share. */
export type ShareField = typeof shareFields[Party]

/** The shares as settings hold them: a percentage per field, absent when not set. */
export type ShareValues = { readonly [K in ShareField]?: number }

const Share = Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 100 }))
const shareOf = (whose: string) =>
  Share.annotate({
    description: `${whose} share of the GGR in percent, 0 to 100 (the admins' to set; all five add up to at most 100)`
  })

/** The settings fields of the shares, as stored and answered (MerchantSettings spreads them). */
export const shareSettings = {
  agentPercentProfit: shareOf("The agent's"),
  merchantPercentProfit: shareOf("The merchant's"),
  providerPercentProfit: shareOf("The provider's"),
  superProviderPercentProfit: shareOf("The super provider's"),
  userPercentProfit: shareOf("The user's")
} as const satisfies Record<ShareField, unknown>

/**
 * The shares decide what the merchant owes the other parties, so only the
 * provider's admins set them (`PUT /operator-api/merchants/{id}/settings`,
 * bearer `write:users`). An operator changing its own settings with its API
 * key (`PUT /operator-api/settings`) may read them but not set or clear them:
 * else it could lower the provider's share just before a report, which
 * applies the shares in force when it is asked. Forbidden names the first
 * share the change gives (a value or `null`); a change without one passes.
 */
export const refuseOwnShareChange = (change: { readonly [field: string]: unknown }): Forbidden | undefined => {
  const field = parties.map((party) => shareFields[party]).find((name) => change[name] !== undefined)
  return field === undefined ? undefined : new Forbidden({
    detail: `${field} is a revenue share: only the provider's admins may set it ` +
      "(PUT /api/v1.1/operator-api/merchants/{id}/settings, bearer write:users); an operator may only read it"
  })
}

/**
 * A percentage held exactly: `units / 10^scale` percent (12.5 % is 125 at
 * scale 1). A setting is a JSON number; its exact value here is the shortest
 * decimal that reads back as that number — the digits the operator wrote.
 */
export interface Percent {
  readonly units: bigint
  readonly scale: number
}

/** Each party's percentage of GGR. */
export type Shares = Readonly<Record<Party, Percent>>

/** The parts of a GGR, in minor units, and what is left: `Σ parts + remainder = ggr`. */
export interface Split {
  readonly parts: Readonly<Record<Party, bigint>>
  readonly remainder: bigint
}

const hundred: Percent = { units: 100n, scale: 0 }

/** A record of every party, `f` called in {@link parties} order. */
const byParty = <A>(f: (party: Party) => A): Readonly<Record<Party, A>> => ({
  provider: f("provider"),
  superProvider: f("superProvider"),
  agent: f("agent"),
  merchant: f("merchant"),
  user: f("user")
})

/** A setting's value (finite, in [0, 100]) as an exact {@link Percent}. */
export const percent = (value: number): Percent => {
  const [whole = "0", fraction = ""] = decimalText(Math.abs(value)).split(".")
  return { units: BigInt(whole + fraction), scale: fraction.length }
}

/** The decimal text of a percentage, without trailing zeros: `"12.5"`, `"0"`, `"33.3333"`. */
export const percentText = (p: Percent): string => {
  const digits = p.units.toString().padStart(p.scale + 1, "0")
  const whole = digits.slice(0, digits.length - p.scale)
  const fraction = digits.slice(digits.length - p.scale).replace(/0+$/, "")
  return fraction === "" ? whole : `${whole}.${fraction}`
}

const unitsAt = (p: Percent, scale: number): bigint => p.units * 10n ** BigInt(scale - p.scale)

const commonScale = (shares: Shares): number => Math.max(...parties.map((party) => shares[party].scale))

/** The shares of the settings; a share not set is 0. */
export const sharesOf = (settings: ShareValues): Shares =>
  byParty((party) => percent(settings[shareFields[party]] ?? 0))

/** The sum of the shares, exactly. */
export const total = (shares: Shares): Percent => {
  const scale = commonScale(shares)
  return { units: parties.reduce((sum, party) => sum + unitsAt(shares[party], scale), 0n), scale }
}

/** Whether the shares add up to at most 100 %, compared exactly (33.3 + 33.3 + 33.4 is 100). */
export const fitIn100 = (shares: Shares): boolean => {
  const sum = total(shares)
  return sum.units <= unitsAt(hundred, sum.scale)
}

const fieldList = parties.map((party) => shareFields[party]).join(" + ")

/** Refuses shares over 100 %, naming `field` and every share field with the sum they would have. */
export const checkShares = (shares: Shares, field: string): ValidationFailed | undefined =>
  fitIn100(shares) ? undefined : new ValidationFailed({
    field,
    detail: `${fieldList} are percentages of GGR and must add up to at most 100, got ${percentText(total(shares))}`
  })

/**
 * Shares that fit in 100 %: each party in {@link parties} order keeps its
 * share up to what the parties before it left of 100 %. Shares that fit are
 * returned unchanged, with `capped: false`. Settings stored before their sum
 * was checked may exceed 100; a report on them caps them so.
 */
export const capped = (shares: Shares): { readonly shares: Shares; readonly capped: boolean } => {
  if (fitIn100(shares)) return { shares, capped: false }
  const scale = commonScale(shares)
  let left = unitsAt(hundred, scale)
  const applied = byParty((party) => {
    const units = unitsAt(shares[party], scale)
    const taken = units < left ? units : left
    left -= taken
    return { units: taken, scale }
  })
  return { shares: applied, capped: true }
}

/**
 * Splits a GGR (minor units, any sign, any size) by the shares: each part is
 * `ggr × percent / 100` rounded toward zero to a whole minor unit, so it has
 * the sign of the GGR and is never more in size than its exact share; the
 * remainder is what is left, `ggr − Σ parts`, so the parts and the remainder
 * add up to the GGR exactly. A negative GGR (the players won) splits the same
 * way: every party carries its share of the loss. Shares over 100 % are
 * refused ({@link checkShares}).
 */
export const split = (ggr: bigint, shares: Shares): Result.Result<Split, ValidationFailed> => {
  const refused = checkShares(shares, shareFields.provider)
  if (refused !== undefined) return Result.fail(refused)
  const scale = commonScale(shares)
  const whole = unitsAt(hundred, scale)
  const parts = byParty((party) => (ggr * unitsAt(shares[party], scale)) / whole)
  const remainder = parties.reduce((left, party) => left - parts[party], ggr)
  return Result.succeed({ parts, remainder })
}
