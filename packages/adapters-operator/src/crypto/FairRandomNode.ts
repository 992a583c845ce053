import { Layer } from "effect"
import { FairRandom } from "@gateway/domain/ports/FairRandom"
import { createHash, createHmac, randomBytes } from "node:crypto"

/** The provably-fair primitives from `node:crypto`: HMAC-SHA256, SHA-256 and 32-byte seeds from its CSPRNG. */
export const fairRandom: FairRandom["Service"] = FairRandom.of({
  hmacSha256: (key, message) => new Uint8Array(createHmac("sha256", key).update(message, "utf8").digest()),
  sha256Hex: (text) => createHash("sha256").update(text, "utf8").digest("hex"),
  newSeed: () => randomBytes(32).toString("hex")
})

/** {@link fairRandom} as the domain's FairRandom port. */
export const layer: Layer.Layer<FairRandom> = Layer.succeed(FairRandom, fairRandom)
