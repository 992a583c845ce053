import { Result, Schema, SchemaIssue } from "effect"
import { ValidationFailed } from "../Validation.ts"
import type { SelectionSpec } from "./GameRules.ts"

export { dialect, type JsonSchema } from "./GameRules.ts"

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

/** The decoder of a game's {@link SelectionSpec}. */
export const decoderOf = (spec: SelectionSpec) => {
  switch (spec.kind) {
    case "oneOf":
      return decoder(Schema.Literals(spec.values), spec.expectation)
    case "integer":
      return decoder(Schema.Int.check(Schema.isBetween({ minimum: spec.minimum, maximum: spec.maximum })), spec.expectation)
    case "numbers":
      return decoder(
        Schema.Array(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: spec.total })))
          .check(Schema.isBetweenLength(1, spec.most), Schema.isUnique()),
        spec.expectation,
        spec.most
      )
  }
}
