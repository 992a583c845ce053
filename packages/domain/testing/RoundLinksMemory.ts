import { Layer } from "effect"
import { RoundLinks } from "../src/ports/RoundLinks.ts"

/**
 * Round links signed by a reversible stand-in (the round id backwards): a
 * link of another round, or a changed signature, does not verify.
 */
export const roundLinks = (base = "https://gateway.test") =>
  Layer.succeed(RoundLinks, RoundLinks.of({
    url: (roundId) => `${base}/rounds/${roundId}?sig=${[...roundId].reverse().join("")}`,
    verify: (roundId, signature) => signature === [...roundId].reverse().join("")
  }))
