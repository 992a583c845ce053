import { DateTime, Effect, Redacted } from "effect"
import type { Actor } from "../Audit.ts"
import type { MerchantId, MerchantNotFound } from "../Merchant.ts"
import { AuditLog } from "../ports/AuditLog.ts"
import { MerchantCredentials } from "../ports/MerchantCredentials.ts"
import { MerchantRepo, type SecretReplacement } from "../ports/MerchantRepo.ts"
import { defaultOverlapSeconds, RevealedSecret, type RotateSecretRequest, RotatedSecret } from "../SecretRotation.ts"

const iso = (ms: number) => DateTime.formatIso(DateTime.makeUnsafe(ms))

/**
 * Replaces a merchant's webhook secret or Ed25519 pair with a new one, the
 * old one signing next to it for the overlap, and records it in the audit
 * log (the secret named, never its value) in the same transaction.
 */
export const rotateSecret = Effect.fn("rotateSecret")(function*(
  merchantId: MerchantId,
  request: RotateSecretRequest,
  actor: Actor
): Effect.fn.Return<RotatedSecret, MerchantNotFound, MerchantRepo | MerchantCredentials | AuditLog> {
  const credentials = yield* MerchantCredentials
  const replacement: SecretReplacement = request.secret === "encryptionKey"
    ? { secret: "encryptionKey", encryptionKey: yield* credentials.webhookSecret }
    : { secret: "signingKey", ...(yield* credentials.signingKeyPair) }
  const overlapSeconds = request.overlapSeconds ?? defaultOverlapSeconds
  const rotated = yield* (yield* AuditLog).audited(
    (yield* MerchantRepo).rotateSecret(merchantId, replacement, overlapSeconds),
    (done) => ({
      merchantId,
      actor,
      action: "secret.rotate",
      before: done.previousPublicKey === undefined ? null : { publicKey: done.previousPublicKey },
      after: {
        [request.secret]: "rotated",
        overlapSeconds,
        overlapUntil: iso(done.overlapUntilMs),
        ...(replacement.secret === "signingKey" ? { publicKey: replacement.publicKey } : {})
      }
    })
  )
  return new RotatedSecret({
    secret: request.secret,
    overlapUntil: iso(rotated.overlapUntilMs),
    ...(replacement.secret === "encryptionKey"
      ? { encryptionKey: Redacted.value(replacement.encryptionKey) }
      : { publicKey: replacement.publicKey }),
    ...(rotated.previousPublicKey === undefined ? {} : { previousPublicKey: rotated.previousPublicKey })
  })
})

/** The merchant's current webhook secret, its reveal recorded in the audit log. */
export const revealSecret = Effect.fn("revealSecret")(function*(
  merchantId: MerchantId,
  actor: Actor
): Effect.fn.Return<RevealedSecret, MerchantNotFound, MerchantRepo | AuditLog> {
  const secrets = yield* (yield* AuditLog).audited((yield* MerchantRepo).secrets(merchantId), () => ({
    merchantId,
    actor,
    action: "secret.reveal",
    before: null,
    after: { encryptionKey: "revealed" }
  }))
  return new RevealedSecret({ encryptionKey: Redacted.value(secrets.encryptionKey) })
})
