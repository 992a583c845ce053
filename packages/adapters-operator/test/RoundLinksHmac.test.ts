import { Redacted } from "effect"
import { assert, describe, it } from "vitest"
import * as RoundLinksHmac from "../src/crypto/RoundLinksHmac.ts"

const roundId = "7c1e9a3b-5d2f-4e6a-8b0c-1d3e5f7a9b2c"
const oldKey = Redacted.make("o".repeat(32))
const newKey = Redacted.make("n".repeat(32))
const sigOf = (url: string) => new URL(url).searchParams.get("sig") ?? ""

describe("round links signed by HMAC-SHA256", () => {
  it("a link names its round under the public base and verifies for that round only", () => {
    const links = RoundLinksHmac.make({ publicBaseUrl: "https://gw.example", keys: [oldKey] })
    const url = links.url(roundId)
    assert.match(url, /^https:\/\/gw\.example\/rounds\/7c1e9a3b-5d2f-4e6a-8b0c-1d3e5f7a9b2c\?sig=[A-Za-z0-9_-]{43}$/)
    assert.isTrue(links.verify(roundId, sigOf(url)))
    assert.isFalse(links.verify(roundId.replace(/c$/, "d"), sigOf(url)))
    for (const forged of ["", "x", sigOf(url).slice(0, -1), `${sigOf(url)}=`, sigOf(url).replace(/^./, (c) => (c === "A" ? "B" : "A"))]) {
      assert.isFalse(links.verify(roundId, forged), forged)
    }
  })

  it("while keys rotate the first signs and every one verifies: old links keep opening", () => {
    const before = RoundLinksHmac.make({ publicBaseUrl: "https://gw.example", keys: [oldKey] }).url(roundId)
    const rotated = RoundLinksHmac.make({ publicBaseUrl: "https://gw.example", keys: [newKey, oldKey] })
    assert.notStrictEqual(sigOf(rotated.url(roundId)), sigOf(before))
    assert.isTrue(rotated.verify(roundId, sigOf(before)))
    assert.isTrue(rotated.verify(roundId, sigOf(rotated.url(roundId))))
    const dropped = RoundLinksHmac.make({ publicBaseUrl: "https://gw.example", keys: [newKey] })
    assert.isFalse(dropped.verify(roundId, sigOf(before)))
  })
})
