import { Result, Schema, SchemaIssue } from "effect"
import { ValidationFailed } from "../Validation.ts"

/** A JSON Schema (draft 2020-12) document, as published for a game's selection. */
export type JsonSchema = { readonly [keyword: string]: unknown }

/** The dialect every selection schema declares. */
export const dialect = "https://json-schema.org/draft/2020-12/schema"

const where = (path: ReadonlyArray<PropertyKey>): string =>
  path.length === 0 ? "" : `at ${path.map((key) => `[${String(key)}]`).join("")}: `

const detailOf = (issue: SchemaIssue.Issue): string => {
  const [first] = SchemaIssue.makeFormatterStandardSchemaV1()(issue).issues
  const path = (first?.path ?? []).map((p) => typeof p === "object" && p !== null ? p.key : p)
  return `${where(path)}${first?.message ?? "invalid value"}`
}

/**
 * A decoder of untrusted selections: the schema's value, or ValidationFailed
 * on field `selection` whose detail says what a selection must be and what
 * is wrong (`must be "odd" or "even" (Expected "odd" | "even")`). An array
 * longer than `maxItems` is refused before its items are looked at.
 */
export const decoder = <S extends Schema.Decoder<unknown>>(
  schema: S,
  expectation: string,
  maxItems?: number
) => {
  const decode = Schema.decodeUnknownResult(schema)
  const refuse = (why: string) => Result.fail(new ValidationFailed({ field: "selection", detail: `${expectation} (${why})` }))
  return (input: unknown): Result.Result<S["Type"], ValidationFailed> => {
    if (maxItems !== undefined && Array.isArray(input) && input.length > maxItems) {
      return refuse(`got ${input.length} items`)
    }
    const decoded = decode(input)
    return Result.isSuccess(decoded) ? Result.succeed(decoded.success) : refuse(detailOf(decoded.failure.issue))
  }
}
