import { Schema } from "effect"
import { CountryCode } from "./Country.ts"
import { CurrencyCode } from "./Currency.ts"
import { MerchantSettings } from "./MerchantSettings.ts"
import type { PageRequest } from "./Paging.ts"
import { isStorableText } from "./Validation.ts"

/** The numeric id of a merchant account. */
export const MerchantId = Schema.Int.check(Schema.isGreaterThan(0)).pipe(Schema.brand("MerchantId"))
export type MerchantId = typeof MerchantId.Type

/** The states of an account. `closed` is final. */
export const AccountStatus = Schema.Literals(["active", "suspended", "closed"])
export type AccountStatus = typeof AccountStatus.Type

/** Whether an account may move from one state to another: anything but out of `closed`. */
export const canChangeStatus = (from: AccountStatus, to: AccountStatus): boolean => from !== "closed" || to === "closed"

/**
 * An e-mail address as accepted at sign-up (one `@`, a dotted domain, no spaces). Patterns carry the `u`
 * flag: Effect writes only those into the OpenAPI document (JSON Schema patterns are Unicode regexes).
 */
export const Email = Schema.String.check(
  Schema.isMaxLength(254),
  isStorableText,
  Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/u, { message: "must be an e-mail address" })
)

const Text = (max: number) =>
  Schema.String.check(Schema.isTrimmed(), Schema.isNonEmpty(), Schema.isMaxLength(max), isStorableText)

/** The body of `POST /operator-api/create`. */
export class CreateMerchantRequest extends Schema.Class<CreateMerchantRequest>("@gateway/domain/CreateMerchantRequest")(Schema.Struct({
  countryCodes: Schema.NonEmptyArray(CountryCode).check(Schema.isMaxLength(250)),
  companyName: Text(200),
  email: Email,
  providerId: Schema.Int.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(2_147_483_647))
}).annotate({
  identifier: "CreateMerchantRequest",
  description: "The body of `POST /operator-api/create`."
})) {}

/** A merchant account as the gateway keeps it, without any secret. */
export class Merchant extends Schema.Class<Merchant>("@gateway/domain/Merchant")(Schema.Struct({
  id: MerchantId,
  createdAt: Schema.DateTimeUtcFromString,
  updatedAt: Schema.DateTimeUtcFromString,
  email: Schema.String,
  accountStatus: AccountStatus,
  clientId: Schema.String,
  companyName: Schema.String,
  country: Schema.String,
  currency: CurrencyCode,
  hashedClientId: Schema.String,
  phoneNumber: Schema.String,
  providerId: Schema.Int,
  publicKey: Schema.String,
  MerchantSettings: MerchantSettings,
  isDefaultPassword: Schema.Boolean,
  verifiedEmail: Schema.Boolean
}).annotate({
  identifier: "Merchant",
  description: "A merchant account as the gateway keeps it, without any secret."
})) {}

/** The admin list of merchants: a page, newest first (by id), optionally searched and filtered by status. */
export interface MerchantQuery extends PageRequest {
  /** Case-insensitive substring of the e-mail or company name, taken literally (`%`, `_`, `\` included). */
  readonly search?: string | undefined
  readonly status?: AccountStatus | undefined
}

/** The longest `search` the merchants list accepts. */
export const maxMerchantSearchLength = 128

/**
 * The answer of `create`: the Merchant object of the seed with the
 * credentials generated for it. The secrets appear here and nowhere else.
 */
export class MerchantCreated extends Schema.Class<MerchantCreated>("@gateway/domain/MerchantCreated")(Schema.Struct({
  ...Merchant.fields,
  password: Schema.String,
  privateKey: Schema.String,
  encryptionKey: Schema.String,
  otpToken: Schema.String
}).annotate({
  identifier: "MerchantCreated",
  description: "The answer of `create`: the Merchant object of the seed with the credentials generated for it. The secrets appear here and nowhere else."
})) {}

/** No merchant with this id. */
export class MerchantNotFound extends Schema.TaggedError<MerchantNotFound>()("MerchantNotFound", {
  merchantId: Schema.Number
}) {
  override get message(): string {
    return `no merchant with id ${this.merchantId}`
  }
}

/** A merchant with this e-mail address exists already (compared case-insensitively). */
export class EmailTaken extends Schema.TaggedError<EmailTaken>()("EmailTaken", {}) {
  override get message(): string {
    return "a merchant with this email exists already"
  }
}

/** A status change that is not allowed (out of `closed`). */
export class StatusChangeRefused extends Schema.TaggedError<StatusChangeRefused>()("StatusChangeRefused", {
  from: AccountStatus,
  to: AccountStatus
}) {
  override get message(): string {
    return `accountStatus cannot change from '${this.from}' to '${this.to}': closed is final`
  }
}
