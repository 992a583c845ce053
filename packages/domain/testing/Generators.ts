import { Effect, Layer, Redacted, Ref } from "effect"
import { FairRandom } from "../src/ports/FairRandom.ts"
import { Ids } from "../src/ports/Ids.ts"
import { MerchantCredentials } from "../src/ports/MerchantCredentials.ts"
import { Readiness } from "../src/ports/Readiness.ts"

/** Ids `00000000-0000-4000-8000-000000000001`, `…02`, … in order. */
export const sequentialIds = Layer.effect(
  Ids,
  Effect.gen(function*() {
    const counter = yield* Ref.make(0)
    return Ids.of({
      uuid: Ref.updateAndGet(counter, (n) => n + 1).pipe(
        Effect.map((n) => `00000000-0000-4000-8000-${n.toString().padStart(12, "0")}`)
      )
    })
  })
)

/** The same (fake) credentials for every new merchant. */
export const fixedCredentials = Layer.succeed(
  MerchantCredentials,
  MerchantCredentials.of({
    generate: Effect.succeed({
      clientId: "6f1c0c1e-8a5e-4a57-9e0c-3d1e2f3a4b5c",
      hashedClientId: "ab".repeat(32),
      password: Redacted.make("generated-password"),
      passwordHash: "scrypt$...",
      publicKey: "-----BEGIN PUBLIC KEY-----",
      privateKey: Redacted.make("-----BEGIN PRIVATE KEY-----"),
      encryptionKey: Redacted.make("whsec_AAAA"),
      otpToken: Redacted.make("123456"),
      otpHash: "sha256$..."
    }),
    webhookSecret: Effect.succeed(Redacted.make("whsec_BBBB")),
    signingKeyPair: Effect.succeed({ publicKey: "-----BEGIN PUBLIC KEY----- 2", privateKey: Redacted.make("-----BEGIN PRIVATE KEY----- 2") })
  })
)

/**
 * Randomness whose every block starts with the unsigned 32-bit big-endian `draw − 1`, then zeros: odd-even and
 * single draw `draw` (1..36). Seeds are counted, and their "hash" is `hash(<seed>)`.
 */
export const fixedDraw = (draw: number) =>
  Layer.sync(FairRandom, () => {
    let seeds = 0
    return FairRandom.of({
      hmacSha256: () => {
        const bytes = new Uint8Array(32)
        new DataView(bytes.buffer).setUint32(0, draw - 1)
        return bytes
      },
      sha256Hex: (text) => `hash(${text})`,
      newSeed: () => `seed-${String(++seeds).padStart(4, "0")}`
    })
  })

/** Readiness that answers `ready.value` at each check. */
export const readiness = (ready: { value: boolean } = { value: true }) =>
  Layer.succeed(Readiness, Readiness.of({ check: Effect.sync(() => ready.value) }))
