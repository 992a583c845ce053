import { Effect, Schema } from "effect"
import { Command, Flag } from "effect/cli"
import { cliActor } from "@gateway/domain/Audit"
import { defaultOverlapSeconds, maxOverlapSeconds, RotateSecretRequest, SecretName } from "@gateway/domain/SecretRotation"
import { revealSecret, rotateSecret } from "@gateway/domain/usecases/RotateSecret"
import { decodeMerchantId, merchantId } from "./Merchants.ts"
import { printJson } from "./Output.ts"
import { Repositories } from "./Repositories.ts"

const rotate = Command.make(
  "rotate",
  {
    merchantId,
    secret: Flag.Literals("secret", SecretName.literals).pipe(
      Flag.withDescription("encryptionKey (the webhook HMAC secret, v1 signatures) or signingKey (the Ed25519 pair, v1a) (required)")
    ),
    overlapSeconds: Flag.Int("overlap-seconds").pipe(
      Flag.withDescription(
        `How long the old secret keeps signing next to the new one, 0 to ${maxOverlapSeconds} (default ${defaultOverlapSeconds})`
      ),
      Flag.withDefault(defaultOverlapSeconds)
    )
  },
  ({ merchantId, secret, overlapSeconds }) =>
    Effect.gen(function*() {
      const id = yield* decodeMerchantId(merchantId)
      const request = yield* Schema.decodeUnknownEffect(RotateSecretRequest)({ secret, overlapSeconds })
      yield* printJson(yield* rotateSecret(id, request, cliActor))
    }).pipe(Effect.provide(Repositories))
).pipe(Command.withDescription(
  "Rotate a merchant's webhook secret or Ed25519 pair: both sign every call until the overlap ends (audited; prints the new encryptionKey or publicKey)"
))

const reveal = Command.make("reveal", { merchantId }, ({ merchantId }) =>
  Effect.gen(function*() {
    yield* printJson(yield* revealSecret(yield* decodeMerchantId(merchantId), cliActor))
  }).pipe(Effect.provide(Repositories))).pipe(
    Command.withDescription("Print a merchant's current webhook secret (encryptionKey); the reveal is audited")
  )

/** `gateway secrets rotate|reveal` (the merchants' signing secrets). */
export const merchantSecrets = [rotate, reveal] as const
