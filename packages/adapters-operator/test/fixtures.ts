import { Effect, Layer } from "effect"
import type { Merchant } from "@gateway/domain/Merchant"
import { MerchantNotFound } from "@gateway/domain/Merchant"
import type { SettingsValues } from "@gateway/domain/MerchantSettings"
import { MerchantCredentials } from "@gateway/domain/ports/MerchantCredentials"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import type { IncomingMessage } from "node:http"
import * as Credentials from "../src/Credentials.ts"
import { makeMerchant, makeSettings } from "../../domain/test/doubles.ts"

/** Real generated credentials: messages signed with them verify with standardwebhooks. */
export const credentials = await Effect.runPromise(
  MerchantCredentials.use((c) => c.generate).pipe(Effect.provide(Credentials.layer))
)

/** Merchant 7 with these settings. */
export const merchantWith = (settings: SettingsValues): Merchant =>
  makeMerchant({ MerchantSettings: makeSettings(settings) })

/** Merchants whose current value is read from `current` on every call, with the real signing secrets. */
export const merchants = (current: { value: Merchant }) =>
  Layer.succeed(MerchantRepo, MerchantRepo.of({
    create: () => Effect.die("unused"),
    findById: (id) =>
      id === current.value.id ? Effect.sync(() => current.value) : Effect.fail(new MerchantNotFound({ merchantId: id })),
    secrets: () => Effect.succeed({ privateKey: credentials.privateKey, encryptionKey: credentials.encryptionKey }),
    changeSettings: () => Effect.die("unused"),
    changeStatus: () => Effect.die("unused")
  }))

/** The three Standard Webhooks headers of a received request. */
export const signedHeaders = (headers: IncomingMessage["headers"]) => ({
  "webhook-id": String(headers["webhook-id"]),
  "webhook-timestamp": String(headers["webhook-timestamp"]),
  "webhook-signature": String(headers["webhook-signature"])
})
