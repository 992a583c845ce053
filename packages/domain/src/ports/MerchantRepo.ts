import type { Effect, Redacted, Result } from "effect"
import { Context } from "effect"
import type { DeliverySettings } from "../Callback.ts"
import type { CurrencyCode } from "../Currency.ts"
import type {
  AccountStatus,
  EmailTaken,
  Merchant,
  MerchantId,
  MerchantNotFound,
  MerchantQuery,
  StatusChangeRefused
} from "../Merchant.ts"
import type { MerchantSettings, SettingsValues } from "../MerchantSettings.ts"
import type { ValidationFailed } from "../Validation.ts"

/** What is stored for a new merchant: public fields, and secrets only in hashed or to-be-encrypted form. */
export interface NewMerchant {
  readonly email: string
  readonly companyName: string
  readonly country: string
  readonly currency: CurrencyCode
  readonly providerId: number
  readonly clientId: string
  readonly hashedClientId: string
  readonly publicKey: string
  readonly passwordHash: string
  readonly otpHash: string
  readonly privateKey: Redacted.Redacted<string>
  readonly encryptionKey: Redacted.Redacted<string>
}

/** A secret replaced by a rotation, still signing until `untilMs` (epoch milliseconds). */
export interface RetiringSecret {
  readonly value: Redacted.Redacted<string>
  readonly untilMs: number
}

/** The signing secrets of a merchant, for calls to its systems. */
export interface MerchantSecrets {
  readonly privateKey: Redacted.Redacted<string>
  readonly encryptionKey: Redacted.Redacted<string>
  /** The encryptionKey a rotation replaced, while its overlap lasts. */
  readonly previousEncryptionKey?: RetiringSecret | undefined
  /** The Ed25519 private key a rotation replaced, while its overlap lasts. */
  readonly previousPrivateKey?: RetiringSecret | undefined
}

/** A new secret for a merchant: a Standard Webhooks secret, or an Ed25519 pair. */
export type SecretReplacement =
  | { readonly secret: "encryptionKey"; readonly encryptionKey: Redacted.Redacted<string> }
  | { readonly secret: "signingKey"; readonly privateKey: Redacted.Redacted<string>; readonly publicKey: string }

/** What a rotation did: until when the replaced secret still signs, and the replaced public key (`signingKey`). */
export interface SecretRotated {
  readonly overlapUntilMs: number
  readonly previousPublicKey: string | undefined
}

/** Merchant accounts with their settings. */
export class MerchantRepo extends Context.Service<MerchantRepo, {
  /** Stores a merchant with empty settings; an e-mail that exists (any case) fails with EmailTaken. */
  create(merchant: NewMerchant): Effect.Effect<Merchant, EmailTaken>
  findById(id: MerchantId): Effect.Effect<Merchant, MerchantNotFound>
  /**
   * The delivery settings, as they are now, of the merchants of `ids` that exist, in one read: the delivery
   * worker's for each batch of messages it sends (only the URLs, not the whole merchant: this runs for every
   * credit of every bet).
   */
  deliverySettings(ids: ReadonlyArray<MerchantId>): Effect.Effect<ReadonlyMap<MerchantId, DeliverySettings>>
  /** A page of merchants, newest first (by id), matching the query, and how many match in all. */
  list(query: MerchantQuery): Effect.Effect<{ readonly merchants: ReadonlyArray<Merchant>; readonly total: number }>
  secrets(id: MerchantId): Effect.Effect<MerchantSecrets, MerchantNotFound>
  /** Changes settings atomically: `change` sees the current values and returns the new ones, or refuses. */
  changeSettings(
    id: MerchantId,
    change: (current: SettingsValues) => Result.Result<SettingsValues, ValidationFailed>
  ): Effect.Effect<MerchantSettings, MerchantNotFound | ValidationFailed>
  /**
   * Replaces a secret; the replaced one keeps signing for `overlapSeconds` (0: not at all), and one replaced
   * earlier is forgotten.
   */
  rotateSecret(
    id: MerchantId,
    replacement: SecretReplacement,
    overlapSeconds: number
  ): Effect.Effect<SecretRotated, MerchantNotFound>
  /** Moves the account to `to` when {@link canChangeStatus} allows it. */
  changeStatus(id: MerchantId, to: AccountStatus): Effect.Effect<Merchant, MerchantNotFound | StatusChangeRefused>
}>()("@gateway/domain/ports/MerchantRepo") {}
