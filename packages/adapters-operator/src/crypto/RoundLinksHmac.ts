import { RoundLinks } from "@gateway/domain/ports/RoundLinks"
import { Layer, Redacted } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"

/** Where round links point and the keys that sign them (the first signs, every one verifies). */
export interface RoundLinkOptions {
  /** The gateway's public base URL, without a trailing slash. */
  readonly publicBaseUrl: string
  readonly keys: ReadonlyArray<Redacted.Redacted<string>>
}

/** The path of a round's details page under the public base URL. */
export const path = (roundId: string, signature: string) =>
  `/rounds/${encodeURIComponent(roundId)}?sig=${signature}`

/**
 * {@link RoundLinks} by HMAC-SHA256 of `round-details:<roundId>` with a key
 * of the gateway, base64url: `<base>/rounds/<roundId>?sig=<signature>`. No
 * expiry and nothing stored; a link dies only with every key that could
 * verify it.
 */
export const make = (options: RoundLinkOptions): RoundLinks["Service"] => {
  const [first] = options.keys
  if (first === undefined) throw new Error("round links need at least one key")
  const sign = (key: Redacted.Redacted<string>, roundId: string) =>
    createHmac("sha256", Redacted.value(key)).update(`round-details:${roundId}`, "utf8").digest()
  return RoundLinks.of({
    url: (roundId) => options.publicBaseUrl + path(roundId, sign(first, roundId).toString("base64url")),
    verify: (roundId, signature) => {
      const given = Buffer.from(signature, "base64url")
      if (given.length !== 32 || given.toString("base64url") !== signature) return false
      return options.keys.some((key) => timingSafeEqual(sign(key, roundId), given))
    }
  })
}

/** The links as a layer. */
export const layer = (options: RoundLinkOptions): Layer.Layer<RoundLinks> => Layer.succeed(RoundLinks, make(options))
