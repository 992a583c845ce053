/** The longest `Retry-After` honoured, in seconds (a day): a later one is cut to this. */
export const maxRetryAfterSeconds = 86_400

/**
 * The seconds an operator's `Retry-After` asks to wait: delta-seconds or an
 * HTTP-date (relative to `nowMs`), at least 0, at most
 * {@link maxRetryAfterSeconds}; undefined when absent or unparsable.
 */
export const parseRetryAfter = (
  header: string | ReadonlyArray<string> | undefined,
  nowMs: number
): number | undefined => {
  const value = (typeof header === "string" ? header : header?.[0])?.trim()
  if (value === undefined || value === "") return undefined
  const seconds = /^\d{1,10}$/.test(value) ? Number(value) : (Date.parse(value) - nowMs) / 1000
  return Number.isNaN(seconds) ? undefined : Math.min(Math.max(seconds, 0), maxRetryAfterSeconds)
}
