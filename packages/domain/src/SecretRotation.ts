import { Schema } from "effect"

/** The secrets a rotation can replace: the webhook HMAC secret (`v1`) or the Ed25519 pair (`v1a`). */
export const SecretName = Schema.Literals(["encryptionKey", "signingKey"]).annotate({
  description: "`encryptionKey`: the Standard Webhooks secret of the `v1` signatures; `signingKey`: the Ed25519 " +
    "pair of the `v1a` signatures (its new public key is answered)"
})
export type SecretName = typeof SecretName.Type

/** How long a replaced secret keeps signing when the request does not say: a day. */
export const defaultOverlapSeconds = 86_400
/** The longest overlap: a week. */
export const maxOverlapSeconds = 604_800

/** The body of a rotation. */
export class RotateSecretRequest extends Schema.Class<RotateSecretRequest>("@gateway/domain/RotateSecretRequest")(Schema.Struct({
  secret: SecretName,
  overlapSeconds: Schema.optionalKey(
    Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: maxOverlapSeconds })).annotate({
      description: `How long the replaced secret keeps signing next to the new one, in seconds, 0 to ${maxOverlapSeconds} ` +
        `(default ${defaultOverlapSeconds}); 0 stops it at once`,
      examples: [3600]
    })
  )
}).annotate({
  identifier: "RotateSecretRequest",
  description: "Which secret to replace, and how long the old one keeps signing next to the new one."
})) {}

/** What a rotation answers: the new public part, and until when both secrets sign. */
export class RotatedSecret extends Schema.Class<RotatedSecret>("@gateway/domain/RotatedSecret")(Schema.Struct({
  secret: SecretName,
  overlapUntil: Schema.String.annotate({
    description: "Until when every call carries the old secret's signature too (ISO 8601, UTC); now when the overlap is 0",
    examples: ["2026-11-26T09:30:00.000Z"]
  }),
  encryptionKey: Schema.optionalKey(Schema.String.annotate({
    description: "The new Standard Webhooks secret (`encryptionKey` rotations only); `POST …/secrets/reveal` shows it again"
  })),
  publicKey: Schema.optionalKey(Schema.String.annotate({
    description: "The new Ed25519 public key, PEM (SPKI) (`signingKey` rotations only); also in `GET /merchants/{id}`"
  })),
  previousPublicKey: Schema.optionalKey(Schema.String.annotate({
    description: "The replaced public key, still signing until `overlapUntil` (`signingKey` rotations only)"
  }))
}).annotate({
  identifier: "RotatedSecret",
  description: "A rotation done: the new secret's public part, and until when the old one still signs."
})) {}

/** The merchant's current webhook secret, shown to an admin. */
export class RevealedSecret extends Schema.Class<RevealedSecret>("@gateway/domain/RevealedSecret")(Schema.Struct({
  encryptionKey: Schema.String.annotate({
    description: "The current Standard Webhooks secret (`whsec_…`) that signs the `v1` signatures"
  })
}).annotate({
  identifier: "RevealedSecret",
  description: "The merchant's current webhook secret."
})) {}
