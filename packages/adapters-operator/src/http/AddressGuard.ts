import { BlockList, isIP } from "node:net"

const blocked = new BlockList()
for (const [network, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 4], ["240.0.0.0", 4]
] as const) blocked.addSubnet(network, prefix, "ipv4")
for (const [network, prefix] of [
  ["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8], ["64:ff9b::", 96], ["100::", 64]
] as const) blocked.addSubnet(network, prefix, "ipv6")

const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i

/**
 * Whether an IP address is loopback, private, link-local, unique-local,
 * unspecified, multicast or otherwise not a public unicast address (IPv4
 * addresses mapped into IPv6 included). Operator URLs must not reach these.
 */
export const isNonPublicAddress = (address: string): boolean => {
  const family = isIP(address)
  if (family === 4) return blocked.check(address, "ipv4")
  if (family === 6) {
    const mapped = MAPPED_V4.exec(address)?.[1]
    return mapped !== undefined ? blocked.check(mapped, "ipv4") : blocked.check(address, "ipv6")
  }
  return true
}

/** The host of a URL as an IP literal (brackets of IPv6 removed), or undefined for a name. */
export const literalAddress = (hostname: string): string | undefined => {
  const host = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname
  return isIP(host) === 0 ? undefined : host
}
