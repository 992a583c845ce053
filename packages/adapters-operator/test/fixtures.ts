import { Effect, Layer } from "effect"
import { MerchantCredentials } from "@gateway/domain/ports/MerchantCredentials"
import type { MerchantRepo, MerchantSecrets } from "@gateway/domain/ports/MerchantRepo"
import type { IncomingMessage } from "node:http"
import * as MerchantCredentialsNode from "../src/crypto/MerchantCredentialsNode.ts"
import * as OperatorCircuit from "../src/http/OperatorCircuit.ts"
import * as OperatorHttp from "../src/http/OperatorHttp.ts"
import * as SignedPost from "../src/http/SignedPost.ts"
import * as MerchantSigningKeys from "../src/webhooks/MerchantSigningKeys.ts"

/** Real generated credentials: messages signed with them verify with standardwebhooks. */
export const credentials = await Effect.runPromise(
  MerchantCredentials.use((c) => c.generate).pipe(Effect.provide(MerchantCredentialsNode.layer))
)

/** The real signing secrets of {@link credentials}, for `makeMerchantRepo(merchants, secrets)`. */
export const secrets: MerchantSecrets = { privateKey: credentials.privateKey, encryptionKey: credentials.encryptionKey }

/**
 * The real signed POST: the guarded client (private addresses allowed unless
 * `allowPrivate` is false), the merchants' keys read from the MerchantRepo,
 * and no circuit breaker unless `circuit` is given (it needs a store).
 */
export const signedPost = (
  allowPrivate = true,
  circuit: Layer.Layer<OperatorCircuit.OperatorCircuit> = OperatorCircuit.layerOff
): Layer.Layer<SignedPost.SignedPost, never, MerchantRepo> =>
  SignedPost.layer.pipe(
    Layer.provide([OperatorHttp.layer(allowPrivate), MerchantSigningKeys.layer(), circuit])
  )

/** The three Standard Webhooks headers of a received request. */
export const signedHeaders = (headers: IncomingMessage["headers"]) => ({
  "webhook-id": String(headers["webhook-id"]),
  "webhook-timestamp": String(headers["webhook-timestamp"]),
  "webhook-signature": String(headers["webhook-signature"])
})
