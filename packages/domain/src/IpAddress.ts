/**
 * The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part and a zone allowed), or undefined when
 * the text is not one.
 */
export const ipv6Groups = (address: string): ReadonlyArray<number> | undefined => {
  const text = (address.split("%")[0] ?? "").toLowerCase()
  const dotted = /(?:^|:)((\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}))$/.exec(text)
  const octets = dotted === null ? [] : dotted.slice(2).map(Number)
  if (octets.some((octet) => octet > 255)) return undefined
  const hex = dotted === null
    ? text
    : text.slice(0, text.length - (dotted[1]?.length ?? 0)) +
      [[octets[0], octets[1]], [octets[2], octets[3]]].map(([a = 0, b = 0]) => ((a << 8) | b).toString(16)).join(":")
  const halves = hex.split("::")
  if (halves.length > 2) return undefined
  const parse = (part: string) => part === "" ? [] : part.split(":")
  const left = parse(halves[0] ?? "")
  const right = halves.length === 2 ? parse(halves[1] ?? "") : []
  const missing = 8 - left.length - right.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined
  const groups = [...left, ...Array<string>(missing).fill("0"), ...right]
  return groups.every((group) => /^[0-9a-f]{1,4}$/.test(group)) ? groups.map((group) => parseInt(group, 16)) : undefined
}

/** Two 16-bit groups as a dotted IPv4 address. */
export const ipv4Of = (high: number, low: number): string => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2) carries, from its groups; else undefined. */
export const mappedIpv4 = (groups: ReadonlyArray<number>): string | undefined =>
  groups.length === 8 && groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff
    ? ipv4Of(groups[6] ?? 0, groups[7] ?? 0)
    : undefined
