import { Effect, Redacted } from "effect"
import { currencyOfCountry } from "../Country.ts"
import { type CreateMerchantRequest, type EmailTaken, MerchantCreated } from "../Merchant.ts"
import { MerchantCredentials } from "../ports/MerchantCredentials.ts"
import { MerchantRepo } from "../ports/MerchantRepo.ts"
import { ValidationFailed } from "../Validation.ts"

/**
 * Creates a merchant: country and currency from the first country code,
 * fresh credentials, status `active`. The secrets are returned once and
 * stored only hashed or encrypted.
 */
export const createMerchant = Effect.fn("createMerchant")(function*(
  request: CreateMerchantRequest
): Effect.fn.Return<MerchantCreated, EmailTaken | ValidationFailed, MerchantRepo | MerchantCredentials> {
  const [country] = request.countryCodes
  const currency = yield* Effect.fromOption(currencyOfCountry(country)).pipe(
    Effect.mapError(() => new ValidationFailed({ field: "countryCodes[0]", detail: "country has no currency" }))
  )
  const credentials = yield* (yield* MerchantCredentials).generate
  const merchant = yield* (yield* MerchantRepo).create({
    email: request.email,
    companyName: request.companyName,
    country,
    currency,
    providerId: request.providerId,
    clientId: credentials.clientId,
    hashedClientId: credentials.hashedClientId,
    publicKey: credentials.publicKey,
    passwordHash: credentials.passwordHash,
    otpHash: credentials.otpHash,
    privateKey: credentials.privateKey,
    encryptionKey: credentials.encryptionKey
  })
  return new MerchantCreated({
    ...merchant,
    password: Redacted.value(credentials.password),
    privateKey: Redacted.value(credentials.privateKey),
    encryptionKey: Redacted.value(credentials.encryptionKey),
    otpToken: Redacted.value(credentials.otpToken)
  })
})
