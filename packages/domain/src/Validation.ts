import { Effect, Schema, SchemaIssue, SchemaTransformation } from "effect"

/**
 * A UTC instant, an ISO 8601 string on the wire, described there: Effect writes a description given to
 * `Schema.DateTimeUtcFromString` on its decoded side, which the OpenAPI document does not show.
 */
export const UtcTimestamp = (description: string) =>
  Schema.String.annotate({ description, examples: ["2026-11-25T09:30:00.000Z"] }).pipe(
    Schema.decodeTo(Schema.DateTimeUtc, SchemaTransformation.dateTimeUtcFromString)
  )

/**
 * Input that does not decode. `field` names the offending field as a path
 * (`countryCodes[0]`, `limit`); `detail` says what is wrong with it.
 */
export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()("ValidationFailed", {
  field: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    return this.field === "" ? this.detail : `${this.field}: ${this.detail}`
  }
}

const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (acc, key) => typeof key === "number" ? `${acc}[${key}]` : acc === "" ? String(key) : `${acc}.${String(key)}`,
    ""
  )

/**
 * Text PostgreSQL can store: no NUL (U+0000). A NUL in a value that reaches
 * the database fails the query, which answered 500; refused here, it is a
 * 400 naming the field.
 */
export const isStorableText = Schema.makeFilter((text: string) =>
  !text.includes("\u0000") || "must not contain the NUL character (U+0000)"
)

/** Turns a Schema issue into a {@link ValidationFailed} naming the first failing field. */
export const fromIssue = (issue: SchemaIssue.Issue): ValidationFailed => {
  const [first] = SchemaIssue.makeFormatterStandardSchemaV1()(issue).issues
  const path = (first?.path ?? []).map((p) => typeof p === "object" && p !== null ? p.key : p)
  return new ValidationFailed({ field: formatPath(path), detail: first?.message ?? "invalid value" })
}

/** Decodes untrusted input with a schema, failing with {@link ValidationFailed}. */
export const decode = <S extends Schema.Decoder<unknown>>(schema: S) => {
  const run = Schema.decodeUnknownEffect(schema)
  return (input: unknown): Effect.Effect<S["Type"], ValidationFailed, S["DecodingServices"]> =>
    run(input).pipe(Effect.mapError((error) => fromIssue(error.issue)))
}
