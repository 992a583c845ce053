/** The contract's delivery schedule in seconds: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const defaultSchedule: ReadonlyArray<number> = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]

/**
 * Seconds until the next attempt after `failedAttempts` failures, or
 * undefined when the schedule is exhausted (the message becomes `failed`).
 * `jitter` in [0, 1) spreads retries by up to ±10 %; an operator's
 * `Retry-After` is honoured when it asks for longer.
 */
export const nextDelay = (
  schedule: ReadonlyArray<number>,
  failedAttempts: number,
  jitter: number,
  retryAfterSeconds?: number
): number | undefined => {
  const base = schedule[failedAttempts - 1]
  if (base === undefined || failedAttempts < 1) return undefined
  const jittered = base * (0.9 + 0.2 * jitter)
  return Math.max(jittered, retryAfterSeconds ?? 0)
}
