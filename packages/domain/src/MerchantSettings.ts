import { Result, Schema, Struct } from "effect"
import { ValidationFailed } from "./Validation.ts"

/** An absolute http(s) URL, as operators configure their Details and webhook addresses. */
export const HttpUrl = Schema.String.check(
  Schema.isMaxLength(2048),
  Schema.isPattern(/^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i, { message: "must be an absolute http(s) URL" })
).annotate({ identifier: "HttpUrl", format: "uri" })

const Share = Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 100 }))
const Stake = Schema.Finite.check(Schema.isGreaterThan(0))

const settingsSchemas = {
  agentPercentProfit: Share,
  callbackUrl: HttpUrl,
  colorGameProfit: Share,
  cupImageUrl: HttpUrl,
  fontFamilyUrl: HttpUrl,
  hideBalance: Schema.Boolean,
  logo1xUrl: HttpUrl,
  logo2xUrl: HttpUrl,
  minimumStake: Stake,
  maximumStake: Stake,
  lottoGameProfit: Share,
  megaTenGameProfit: Share,
  merchantPercentProfit: Share,
  oddEvenGameProfit: Share,
  providerPercentProfit: Share,
  shopDetailsUrl: HttpUrl,
  singleGameProfit: Share,
  superProviderPercentProfit: Share,
  underOverGameProfit: Share,
  userDetailsUrl: HttpUrl,
  userPercentProfit: Share,
  webhookUrl: HttpUrl,
  creditWebhookUrl: HttpUrl,
  debitWebhookUrl: HttpUrl,
  refundWebhookUrl: HttpUrl,
  isSeperateWebhookUrl: Schema.Boolean
} as const

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
    id: Schema.Int,
    createdAt: Schema.DateTimeUtcFromString,
    updatedAt: Schema.DateTimeUtcFromString,
    merchantId: Schema.optionalKey(Schema.Int),
    ...SettingsFields
  }).check(stakesOrdered)
) {}

/**
 * A change to settings: each key given is set, a key given as `null` is
 * cleared, an absent key is kept. Stakes must stay ordered after the change.
 */
export const SettingsChange = Schema.Struct(
  Struct.map(Struct.map(settingsSchemas, Schema.NullOr), Schema.optionalKey)
).annotate({ identifier: "SettingsChange" })
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

/** `minimumStake <= maximumStake` when both are set. */
export const stakesAreOrdered = (values: SettingsValues): boolean =>
  values.minimumStake === undefined || values.maximumStake === undefined || values.minimumStake <= values.maximumStake

/**
 * The settings after `change`, refused with ValidationFailed naming
 * `minimumStake` when the stakes would no longer be ordered. The form
 * `MerchantRepo.changeSettings` applies atomically to the current values.
 */
export const changedSettings = (change: SettingsChange) =>
(current: SettingsValues): Result.Result<SettingsValues, ValidationFailed> => {
  const next = applyChange(current, change)
  return stakesAreOrdered(next)
    ? Result.succeed(next)
    : Result.fail(new ValidationFailed({ field: "minimumStake", detail: "must not be greater than maximumStake" }))
}
