import { Schema } from "effect"
import { CountryCode } from "./Country.ts"
import { CurrencyCode } from "./Currency.ts"
import { MerchantSettings } from "./MerchantSettings.ts"
import type { PageRequest } from "./Paging.ts"
import { isStorableText, UtcTimestamp } from "./Validation.ts"

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
  countryCodes: Schema.NonEmptyArray(CountryCode).check(Schema.isMaxLength(250)).annotate({ description: "The countries the merchant serves (ISO 3166-1 alpha-2); the first is its `country`" }),
  companyName: Text(200).annotateKey({ description: "The merchant's company name" }),
  email: Email.annotate({ description: "The merchant's e-mail address: its login, unique (compared case-insensitively)" }),
  providerId: Schema.Int.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(2_147_483_647)).annotate({ description: "The id of the provider the merchant belongs to" })
}).annotate({
  identifier: "CreateMerchantRequest",
  description: "The body of `POST /operator-api/create`."
})) {}

/** A merchant account as the gateway keeps it, without any secret. */
export class Merchant extends Schema.Class<Merchant>("@gateway/domain/Merchant")(Schema.Struct({
  id: MerchantId.annotate({ description: "The merchant's id" }),
  createdAt: UtcTimestamp("When the account was created (ISO 8601, UTC)"),
  updatedAt: UtcTimestamp("When the account last changed (ISO 8601, UTC)"),
  email: Schema.String.annotate({ description: "The merchant's e-mail address" }),
  accountStatus: AccountStatus.annotate({ description: "`active`, `suspended` (its keys and links refused) or `closed` (final)" }),
  clientId: Schema.String.annotate({ description: "The merchant's client id, a UUID" }),
  companyName: Schema.String.annotate({ description: "The merchant's company name" }),
  country: Schema.String.annotate({ description: "The merchant's country (ISO 3166-1 alpha-2): the first of `countryCodes`" }),
  currency: CurrencyCode,
  hashedClientId: Schema.String.annotate({ description: "The hex SHA-256 of `clientId`" }),
  phoneNumber: Schema.String.annotate({ description: "The merchant's phone number; empty until it gives one" }),
  providerId: Schema.Int.annotate({ description: "The id of the provider the merchant belongs to" }),
  publicKey: Schema.String.annotate({ description: "The merchant's Ed25519 public key (PEM, SPKI): verifies the `v1a` signatures of the gateway's calls" }),
  MerchantSettings: MerchantSettings,
  isDefaultPassword: Schema.Boolean.annotate({ description: "Whether the generated password is still unchanged" }),
  verifiedEmail: Schema.Boolean.annotate({ description: "Whether the e-mail address was verified with `otpToken`" })
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
  password: Schema.String.annotate({ description: "The generated back-office password, shown once; stored only as a slow hash" }),
  privateKey: Schema.String.annotate({ description: "The merchant's Ed25519 private key (PEM, PKCS#8), shown once; the gateway signs `v1a` with it" }),
  encryptionKey: Schema.String.annotate({ description: "The Standard Webhooks secret (`whsec_…`) the gateway signs `v1` with: verify the calls with it" }),
  otpToken: Schema.String.annotate({ description: "The 6-digit code that verifies the e-mail address, shown once" })
}).annotate({
  identifier: "MerchantCreated",
  description: "A merchant just created, with the credentials generated for it: its secrets appear here and nowhere else."
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
