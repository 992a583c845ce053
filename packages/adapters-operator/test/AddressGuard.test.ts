import { assert, describe, it } from "@effect/vitest"
import { isNonPublicAddress } from "../src/http/AddressGuard.ts"

/** What the guard must refuse at settings time and at connect time (both ask `isNonPublicAddress`). */
const nonPublic = [
  "127.0.0.1", "10.1.2.3", "169.254.169.254", "0.0.0.0", "::", "::1", "fd00::1", "fe80::1", "::ffff:127.0.0.1",
  "::ffff:7f00:1", "::ffff:a00:1",
  ["::7f00:1", "IPv4-compatible (deprecated) 127.0.0.1"],
  ["::127.0.0.1", "IPv4-compatible, dotted"],
  ["::a00:1", "IPv4-compatible 10.0.0.1"],
  ["::5db8:d822", "IPv4-compatible, even of a public address (deprecated, never routed)"],
  ["fec0::1", "site-local (deprecated)"],
  ["feff::1", "site-local, upper end"],
  ["::ffff:0:7f00:1", "IPv4-translated 127.0.0.1"],
  ["::ffff:0:5db8:d822", "IPv4-translated, any"],
  ["64:ff9b:1::7f00:1", "local-use NAT64"],
  ["64:ff9b::7f00:1", "well-known NAT64 prefix"],
  ["64:ff9b::a9fe:a9fe", "NAT64 of 169.254.169.254"],
  ["2002:7f00:1::", "6to4 of 127.0.0.1"],
  ["2002:a00:1::1", "6to4 of 10.0.0.1"],
  ["2002:c0a8:101::", "6to4 of 192.168.1.1"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
  ["2001:db8::1", "documentation"]
].map((entry) => typeof entry === "string" ? [entry, entry] : entry)

const publicAddresses = [
  "93.184.216.34", "8.8.8.8", "2606:2800:220:1:248:1893:25c8:1946", "2a00:1450:4001:82b::200e",
  "2002:5db8:d822::1", "::ffff:5db8:d822", "::ffff:93.184.216.34", "2001:4860:4860::8888"
]

describe("AddressGuard", () => {
  it.each(nonPublic)("refuses %s (%s)", (address) => {
    assert.isTrue(isNonPublicAddress(address), address)
  })

  it.each(publicAddresses)("accepts the public address %s", (address) => {
    assert.isFalse(isNonPublicAddress(address), address)
  })
})
