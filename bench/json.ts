/** Reading fields of JSON answers without trusting their shape. */

const fieldOf = (value: unknown, name: string): unknown =>
  typeof value === "object" && value !== null && name in value ? Object.getOwnPropertyDescriptor(value, name)?.value : undefined

/** A string field of a JSON object, or an error naming it and showing the answer. */
export const stringField = (value: unknown, name: string): string => {
  const field = fieldOf(value, name)
  if (typeof field !== "string") throw new Error(`expected a string "${name}" in ${JSON.stringify(value)?.slice(0, 300)}`)
  return field
}

/** A number field of a JSON object, or an error naming it and showing the answer. */
export const numberField = (value: unknown, name: string): number => {
  const field = fieldOf(value, name)
  if (typeof field !== "number") throw new Error(`expected a number "${name}" in ${JSON.stringify(value)?.slice(0, 300)}`)
  return field
}

/** Fetches `url` and parses the answer as JSON; an error with the body when the status is not `expected`. */
export const fetchJson = async (url: string, init: RequestInit, expected: number): Promise<unknown> => {
  const res = await fetch(url, init)
  const text = await res.text()
  if (res.status !== expected) throw new Error(`${init.method ?? "GET"} ${url} answered ${res.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text)
}
