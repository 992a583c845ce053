/** A day in milliseconds. */
export const day = 86_400_000

/** The UTC day of a time, as a date input holds it: `2026-11-27`. */
export const isoDay = (time: number): string => new Date(time).toISOString().slice(0, 10)

/** The period of the UTC days `from` to `to`, both included, as the API takes it (`to` is the next day's start). */
export const utcPeriod = (from: string, to: string): { readonly from: string; readonly to: string } => ({
  from: `${from}T00:00:00Z`,
  to: `${isoDay(Date.parse(to) + day)}T00:00:00Z`
})
