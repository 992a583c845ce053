import { ipv4Of, ipv6Groups, mappedIpv4 } from "@gateway/domain/IpAddress"
import { BlockList, isIP } from "node:net"

const blockedV4 = new BlockList()
for (const [network, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 4], ["240.0.0.0", 4]
] as const) blockedV4.addSubnet(network, prefix, "ipv4")
const blockedV6 = new BlockList()
for (const [network, prefix] of [
  ["fc00::", 7], ["fe80::", 10], ["fec0::", 10], ["ff00::", 8], // unique-local, link-local, site-local (deprecated), multicast
  ["64:ff9b::", 32], // NAT64: the well-known /96 and the local-use 64:ff9b:1::/48 (RFC 8215)
  ["100::", 64], ["2001::", 32], ["2001:db8::", 32] // discard, Teredo, documentation
] as const) blockedV6.addSubnet(network, prefix, "ipv6")

/**
 * Whether an IP address is loopback, private, link-local, unique-local,
 * site-local, unspecified, multicast, documentation or otherwise not a
 * public unicast address. IPv6 forms that carry an IPv4 address are judged
 * by it or refused: mapped (`::ffff:a.b.c.d`) and 6to4 (`2002:AABB:CCDD::`)
 * by the IPv4 address; IPv4-compatible (`::a.b.c.d`), IPv4-translated,
 * NAT64 (`64:ff9b::/32`) and Teredo (`2001::/32`) always. Operator URLs must
 * not reach these.
 */
export const isNonPublicAddress = (address: string): boolean => {
  const family = isIP(address)
  if (family === 4) return blockedV4.check(address, "ipv4")
  if (family !== 6) return true
  const groups = ipv6Groups(address) ?? []
  const [g0 = 0, g1 = 0, g2 = 0] = groups
  const mapped = mappedIpv4(groups)
  if (mapped !== undefined) return blockedV4.check(mapped, "ipv4")
  // unspecified, loopback, IPv4-compatible (deprecated), IPv4-translated, and the rest of ::/64
  if (groups.slice(0, 4).every((g) => g === 0)) return true
  if (g0 === 0x2002) return blockedV4.check(ipv4Of(g1, g2), "ipv4") // 6to4
  return blockedV6.check(groups.map((g) => g.toString(16)).join(":"), "ipv6")
}

/** The host of a URL as an IP literal (brackets of IPv6 removed), or undefined for a name. */
export const literalAddress = (hostname: string): string | undefined => {
  const host = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname
  return isIP(host) === 0 ? undefined : host
}
