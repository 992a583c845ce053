import { Result, Schema, SchemaTransformation, Struct } from "effect"
import { type CurrencyCode, minorUnits } from "./Currency.ts"
import { profitChanges, profitSettings } from "./games/Games.ts"
import * as Money from "./Money.ts"
import { checkShares, parties, shareFields, shareSettings, sharesOf } from "./RevenueShare.ts"
import { isStorableText, UtcTimestamp, ValidationFailed } from "./Validation.ts"

/**
 * An absolute http(s) URL, as operators configure their Details and webhook addresses. The pattern is
 * written without the `i` flag and with `u` (so Effect puts it into the OpenAPI document), and stays the
 * last check: `format: uri` annotates it.
 */
export const HttpUrl = Schema.String.check(
  Schema.isMaxLength(2048),
  isStorableText,
  Schema.isPattern(/^[Hh][Tt][Tt][Pp][Ss]?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/u, { message: "must be an absolute http(s) URL" })
).annotate({ format: "uri" })

/** One CSP source (a regular expression literal's source, spliced into {@link FrameAncestors}'s pattern). */
const frameSource = /(?:\*|'self'|https?:|(?:https?:\/\/)?(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::(?:[0-9]{1,5}|\*))?(?:\/[!#-+\--:<-~]*)?)/.source

/**
 * Who may frame the game page: a CSP `frame-ancestors` source list — `'none'`, or up to 16 sources separated by
 * spaces (`*`, `'self'`, `https:`, `https://casino.example`, `https://*.casino.example:8443`). No `;` or `,`, so
 * it cannot reach another directive or header.
 */
export const FrameAncestors = Schema.String.check(
  Schema.isMaxLength(1024),
  Schema.isPattern(new RegExp(`^(?:'none'|${frameSource}(?: ${frameSource}){0,15})$`, "u"), {
    message: "must be 'none' or up to 16 CSP sources separated by single spaces, e.g. https://casino.example 'self'"
  })
).annotate({
  description: "The game page's CSP `frame-ancestors`: 'none' or sources separated by spaces; default `*`",
  examples: ["https://casino.example https://*.casino.example", "'self'"]
})

/**
 * A stake limit as answered and stored: a JSON number of major units of the
 * merchant's currency, positive. Whether it has no more fraction digits than
 * the currency and is at most the largest stake depends on the currency, so
 * {@link changedSettings} checks that ({@link checkStakeLimit}); the bound
 * here is the loosest, that of a currency without minor units.
 */
const Stake = Schema.Finite.check(
  Schema.isGreaterThan(0),
  Schema.isLessThanOrEqualTo(Number(Money.maxStakeMinor), {
    message: "is above the largest stake, 10^15 - 1 minor units of the merchant's currency (9999999999999.99 in EUR)"
  })
).annotate({
  description: "A positive amount in major units of the merchant's currency, with at most as many fraction " +
    "digits as the currency has (ISO 4217), e.g. 12.5"
})

/** A decimal that a JSON number holds exactly: at most 15 significant digits, as every valid stake limit has. */
const isExactAsNumber = Schema.makeFilter((text: string) => {
  const fraction = text.includes(".") ? text.replace(/\.?0+$/, "") : text
  return Money.decimalText(Number(text)) === fraction ? undefined : "has more digits than a stake limit can have"
})

/**
 * A stake limit given as a decimal string (`"12.50"`), accepted on input
 * besides a JSON number and answered as a number.
 */
const StakeText = Schema.String.check(
  Schema.isPattern(/^(0|[1-9][0-9]{0,14})(\.[0-9]{1,4})?$/, {
    message: "must be a positive decimal like 12.50 (a JSON number or a decimal string)"
  }),
  isExactAsNumber
).pipe(Schema.decodeTo(Stake, SchemaTransformation.numberFromString))

/** A stake limit on input: a JSON number, or the same as a decimal string. */
const StakeInput = Schema.Union([Stake, StakeText])

const ownSchemas = {
  callbackUrl: HttpUrl.annotate({ description: "Where the gateway sends the non-money events (`session.started`, `session.ended`, `round.settled`), signed and retried like wallet webhooks; unset: none are sent" }),
  cupImageUrl: HttpUrl.annotate({ description: "The merchant's cup image, shown by the game page" }),
  fontFamilyUrl: HttpUrl.annotate({ description: "A web font for the game page" }),
  frameAncestors: FrameAncestors,
  hideBalance: Schema.Boolean.annotate({ description: "Whether the game page hides the player's balance" }),
  logo1xUrl: HttpUrl.annotate({ description: "The merchant's logo, shown by the game page" }),
  logo2xUrl: HttpUrl.annotate({ description: "The merchant's logo for high-density screens" }),
  minimumStake: Stake.annotate({ description: "The smallest stake a round may have, in major units of the merchant's currency" }),
  maximumStake: Stake.annotate({ description: "The largest stake a round may have, in major units of the merchant's currency" }),
  shopDetailsUrl: HttpUrl.annotate({ description: "The merchant's shop details URL (kept for the back office; the gateway does not call it)" }),
  userDetailsUrl: HttpUrl.annotate({ description: "The Details URL: the gateway asks it who a player is at each real-mode launch" }),
  webhookUrl: HttpUrl.annotate({ description: "The wallet webhook URL: debits, credits, refunds and test pings are POSTed to it" }),
  creditWebhookUrl: HttpUrl.annotate({ description: "Where credits go instead of `webhookUrl`, when `isSeperateWebhookUrl`" }),
  debitWebhookUrl: HttpUrl.annotate({ description: "Where debits go instead of `webhookUrl`, when `isSeperateWebhookUrl`" }),
  refundWebhookUrl: HttpUrl.annotate({ description: "Where refunds go instead of `webhookUrl`, when `isSeperateWebhookUrl`" }),
  isSeperateWebhookUrl: Schema.Boolean.annotate({ description: "Whether debits, credits and refunds each go to their own URL (the name is spelt so for compatibility)" })
} as const

const fieldSchemas = { ...ownSchemas, ...shareSettings, ...profitSettings }

/**
 * The order the fields were released in, which every answer and the OpenAPI
 * document keep; the profit fields of games added since follow, in the
 * games' order (`games/Definitions.ts`).
 */
const releasedOrder = [
  "agentPercentProfit", "callbackUrl", "colorGameProfit", "cupImageUrl", "fontFamilyUrl", "frameAncestors", "hideBalance",
  "logo1xUrl", "logo2xUrl", "minimumStake", "maximumStake", "lottoGameProfit", "megaTenGameProfit", "merchantPercentProfit",
  "oddEvenGameProfit", "providerPercentProfit", "shopDetailsUrl", "singleGameProfit", "superProviderPercentProfit",
  "underOverGameProfit", "userDetailsUrl", "userPercentProfit", "webhookUrl", "creditWebhookUrl", "debitWebhookUrl",
  "refundWebhookUrl", "isSeperateWebhookUrl"
] as const satisfies ReadonlyArray<keyof typeof fieldSchemas>

type FieldSchemas = typeof fieldSchemas

const released: ReadonlySet<string> = new Set(releasedOrder)

const isComplete = (fields: Partial<FieldSchemas>): fields is FieldSchemas =>
  Struct.keys(fieldSchemas).every((field) => Object.hasOwn(fields, field))

/** Every field's schema, in {@link releasedOrder}. */
const inReleasedOrder = (): FieldSchemas => {
  const fields: Partial<FieldSchemas> = {}
  const add = <K extends keyof FieldSchemas>(field: K) => {
    fields[field] = fieldSchemas[field]
  }
  for (const field of releasedOrder) add(field)
  for (const field of Struct.keys(profitSettings)) if (!released.has(field)) add(field)
  if (!isComplete(fields)) throw new Error("a settings field is missing from the released order")
  return fields
}

const settingsSchemas = inReleasedOrder()

/** The settings fields an operator or admin may change, every one optional, named exactly as in the seed. */
export const SettingsFields = Struct.map(settingsSchemas, Schema.optionalKey)

/** The names of the changeable settings fields. */
export type SettingsField = keyof typeof SettingsFields
export const settingsFieldNames: ReadonlyArray<SettingsField> = Struct.keys(settingsSchemas)

const stakesOrdered = Schema.makeFilter((s: SettingsValues) =>
  stakesAreOrdered(s) ? undefined : { path: ["minimumStake"], issue: "must not be greater than maximumStake" }
)

/** The MerchantSettings object of the seed: ids and timestamps required, everything else optional. */
export class MerchantSettings extends Schema.Class<MerchantSettings>("@gateway/domain/MerchantSettings")(
  Schema.Struct({
    id: Schema.Int.annotate({ description: "The settings' id" }),
    createdAt: UtcTimestamp("When the settings were created (ISO 8601, UTC)"),
    updatedAt: UtcTimestamp("When the settings last changed (ISO 8601, UTC)"),
    merchantId: Schema.optionalKey(Schema.Int.annotate({ description: "The merchant's id" })),
    ...SettingsFields
  }).annotate({
    description: "A merchant's settings: ids and timestamps always, every other field only once it is set."
  }).check(stakesOrdered).annotate({ identifier: "MerchantSettings" })
) {}

/**
 * A change to settings: each key given is set, a key given as `null` is
 * cleared, an absent key is kept. Stakes must stay ordered after the change.
 * A stake limit may be given as a JSON number or a decimal string.
 */
export const SettingsChange = Schema.Struct({
  ...Struct.map(Struct.map(settingsSchemas, Schema.NullOr), Schema.optionalKey),
  minimumStake: Schema.optionalKey(Schema.NullOr(StakeInput)).annotate({
    description: "The smallest stake, in major units: a JSON number or a decimal string; null clears it"
  }),
  maximumStake: Schema.optionalKey(Schema.NullOr(StakeInput)).annotate({
    description: "The largest stake, in major units: a JSON number or a decimal string; null clears it"
  }),
  // A game's house edge is bounded when it is set (a value stored before the bound is clamped when played).
  ...profitChanges
}).annotate({ identifier: "SettingsChange" })
export type SettingsChange = typeof SettingsChange.Type

/** The changeable part of settings, as stored. */
export type SettingsValues = { readonly [K in SettingsField]?: Exclude<SettingsChange[K], null> }

/** Applies a change to the current values; stake order is checked by {@link stakesAreOrdered}. */
export const applyChange = (current: SettingsValues, change: SettingsChange): SettingsValues => {
  const next: { [K in SettingsField]?: unknown } = { ...current }
  for (const name of settingsFieldNames) {
    const value = change[name]
    if (value === null) delete next[name]
    else if (value !== undefined) next[name] = value
  }
  return decodeValues(next)
}

const decodeValues = Schema.decodeUnknownSync(Schema.Struct(SettingsFields))

/**
 * `minimumStake <= maximumStake` when both are set. Comparing the numbers is
 * exact: every valid limit has at most 15 significant digits, and distinct
 * such decimals are distinct doubles in the same order.
 */
export const stakesAreOrdered = (values: SettingsValues): boolean =>
  values.minimumStake === undefined || values.maximumStake === undefined || values.minimumStake <= values.maximumStake

/**
 * A stake limit in minor units of `currency`, the detail of a refusal
 * otherwise: no more fraction digits than the currency has (never rounded),
 * greater than 0 and at most {@link Money.maxStakeMinor}.
 */
export const checkStakeLimit = (value: number, currency: CurrencyCode): Result.Result<bigint, string> => {
  const digits = minorUnits(currency)
  const parsed = Money.fromNumber(value, currency)
  if (Result.isFailure(parsed)) {
    const got = Money.decimalText(value).slice(0, 40)
    return Result.fail(
      digits === 0
        ? `must be a whole amount of ${currency}, which has no fraction digits, got ${got}`
        : `must be an amount of ${currency} with at most ${digits} fraction digits, got ${got}`
    )
  }
  const minor = parsed.success.minor
  if (minor <= 0n) return Result.fail("must be greater than 0")
  if (minor > Money.maxStakeMinor) {
    return Result.fail(`must be at most ${Money.format(Money.make(Money.maxStakeMinor, currency))}`)
  }
  return Result.succeed(minor)
}

/**
 * A stored stake limit in minor units of `currency`: exact for every limit
 * {@link checkStakeLimit} accepts. A limit saved before limits were checked
 * against the currency is rounded half up, as migration 0007 rounded the
 * stored ones, so a round never fails on it.
 */
export const stakeLimitMinor = (value: number, currency: CurrencyCode): bigint => {
  const digits = minorUnits(currency)
  const [whole = "0", fraction = ""] = Money.decimalText(value).split(".")
  const minor = BigInt(/^[0-9]+$/.test(whole) ? whole : "0") * 10n ** BigInt(digits) +
    BigInt(fraction.slice(0, digits).padEnd(digits, "0") || "0")
  return (fraction[digits] ?? "0") >= "5" ? minor + 1n : minor
}

const stakeFields = ["minimumStake", "maximumStake"] as const

/**
 * The settings after `change` for a merchant whose currency is `currency`.
 * Refused with ValidationFailed naming the field when a stake limit given has
 * more fraction digits than the currency or exceeds the largest stake, and
 * naming `minimumStake` when the stakes, compared in minor units, would no
 * longer be ordered. A change that sets any of the five `…PercentProfit`
 * revenue shares must leave them adding up to at most 100, else it is
 * refused naming the first share it sets (shares stored before that check
 * may exceed 100: other changes still pass). The form
 * `MerchantRepo.changeSettings` applies atomically to the current values.
 */
export const changedSettings = (change: SettingsChange, currency: CurrencyCode) =>
(current: SettingsValues): Result.Result<SettingsValues, ValidationFailed> => {
  for (const field of stakeFields) {
    const value = change[field]
    if (value === undefined || value === null) continue
    const checked = checkStakeLimit(value, currency)
    if (Result.isFailure(checked)) return Result.fail(new ValidationFailed({ field, detail: checked.failure }))
  }
  const next = applyChange(current, change)
  const shareSet = parties.map((party) => shareFields[party]).find((field) => typeof change[field] === "number")
  const overShared = shareSet === undefined ? undefined : checkShares(sharesOf(next), shareSet)
  if (overShared !== undefined) return Result.fail(overShared)
  const { minimumStake, maximumStake } = next
  return minimumStake === undefined || maximumStake === undefined ||
      stakeLimitMinor(minimumStake, currency) <= stakeLimitMinor(maximumStake, currency)
    ? Result.succeed(next)
    : Result.fail(new ValidationFailed({ field: "minimumStake", detail: "must not be greater than maximumStake" }))
}
