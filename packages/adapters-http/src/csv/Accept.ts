/** How closely a media range matches: 3 exact, 2 `type/*`, 1 `*\/*`, 0 not at all. */
const specificity = (range: string, type: string) => {
  if (range === type) return 3
  if (range === "*/*") return 1
  return range.endsWith("/*") && type.startsWith(range.slice(0, -1)) ? 2 : 0
}

/** The q-value of `type` in the parsed ranges: that of its most specific range, 0 when none matches. */
const quality = (ranges: ReadonlyArray<{ readonly range: string; readonly q: number }>, type: string) => {
  let best = { specificity: 0, q: 0 }
  for (const { range, q } of ranges) {
    const s = specificity(range, type)
    if (s > best.specificity) best = { specificity: s, q }
  }
  return best
}

const parse = (accept: string) =>
  accept.slice(0, 1024).split(",").slice(0, 32).map((part) => {
    const [range = "", ...params] = part.split(";").map((p) => p.trim().toLowerCase())
    const qParam = params.find((p) => p.startsWith("q="))
    const q = qParam === undefined ? 1 : Number(qParam.slice(2))
    return { range, q: Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0 }
  })

/**
 * Whether an `Accept` header asks for CSV rather than JSON (RFC 9110
 * §12.5.1): `text/csv` (or `text/*`) with a q-value above JSON's, or equal
 * to it and matched by a more specific range (`text/csv, *\/*`). JSON
 * otherwise: no header, `*\/*`, `application/json`, and also an `Accept`
 * that names neither (`text/html`), which is answered as if it were absent,
 * as RFC 9110 allows, instead of 406: a client that read JSON before keeps
 * reading it. Bounded: the first 1 KiB and 32 ranges are read.
 */
export const wantsCsv = (accept: string | undefined): boolean => {
  if (accept === undefined || accept === "") return false
  const ranges = parse(accept)
  const csv = quality(ranges, "text/csv")
  const json = quality(ranges, "application/json")
  if (csv.q === 0) return false
  return csv.q > json.q || (csv.q === json.q && csv.specificity > json.specificity)
}

/**
 * Whether an `Accept` header asks for JSON rather than HTML (a round's link,
 * CONTRACT §10): `application/json` with a q-value above HTML's, or equal to
 * it and matched by a more specific range. HTML otherwise: no header, `*\/*`,
 * a browser's `text/html,…`.
 */
export const wantsJson = (accept: string | undefined): boolean => {
  if (accept === undefined || accept === "") return false
  const ranges = parse(accept)
  const json = quality(ranges, "application/json")
  const html = quality(ranges, "text/html")
  if (json.q === 0) return false
  return json.q > html.q || (json.q === html.q && json.specificity > html.specificity)
}
