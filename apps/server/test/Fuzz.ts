import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import fc from "fast-check"

/**
 * A schema-driven HTTP fuzzer for our own OpenAPI 3.1 document, in the manner
 * of schemathesis: requests are generated with fast-check from each
 * operation's parameter and request-body JSON Schemas (valid values, and
 * values made invalid on purpose), and every answer is checked against the
 * document (status, content type, body schema, documented headers).
 *
 * This module knows nothing of the gateway: the test supplies `hints`
 * (realistic values by field name), `refs` (values resolved when the request
 * is sent: ids and tokens the run has created, the stateful links) and the
 * credentials.
 */

// ---------------------------------------------------------------------------
// The document

export type Schema = { readonly [key: string]: unknown }

export interface Parameter {
  readonly name: string
  readonly in: "path" | "query" | "header" | "cookie"
  readonly required: boolean
  readonly schema: Schema
}

export interface DocumentedResponse {
  /** media type (as documented, e.g. `text/html; charset=utf-8`) → schema */
  readonly content: Readonly<Record<string, Schema>>
  readonly headers: Readonly<Record<string, { readonly required: boolean; readonly schema: Schema }>>
}

export interface Operation {
  readonly id: string
  readonly method: string
  readonly path: string
  readonly parameters: ReadonlyArray<Parameter>
  readonly body: { readonly required: boolean; readonly contentTypes: ReadonlyArray<string>; readonly schema: Schema } | undefined
  readonly responses: Readonly<Record<string, DocumentedResponse>>
  /** Alternatives, each a list of security scheme names; empty: no credentials. */
  readonly security: ReadonlyArray<ReadonlyArray<string>>
}

export interface OpenApiDocument {
  readonly openapi: string
  readonly paths: Record<string, Record<string, any>>
  readonly components?: { readonly schemas?: Record<string, Schema>; readonly securitySchemes?: Record<string, any> }
  readonly security?: ReadonlyArray<Record<string, ReadonlyArray<string>>>
}

const methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

/** Every operation of the document. */
export const operationsOf = (doc: OpenApiDocument): Array<Operation> =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).filter(([method]) => methods.includes(method)).map(([method, op]): Operation => {
      const parameters: Array<Parameter> = [...(item["parameters"] ?? []), ...(op.parameters ?? [])].map((p: any) => ({
        name: String(p.name),
        in: p.in,
        required: p.required === true || p.in === "path",
        schema: p.schema ?? {}
      }))
      const content = op.requestBody?.content as Record<string, { schema?: Schema }> | undefined
      const firstType = content === undefined ? undefined : Object.keys(content)[0]
      const body = content === undefined || firstType === undefined ? undefined : {
        required: op.requestBody.required === true,
        contentTypes: Object.keys(content),
        schema: content[firstType]?.schema ?? {}
      }
      const responses = Object.fromEntries(
        Object.entries(op.responses ?? {}).map(([status, r]: [string, any]) => [status, {
          content: Object.fromEntries(Object.entries(r.content ?? {}).map(([type, c]: [string, any]) => [type, c.schema ?? {}])),
          headers: Object.fromEntries(Object.entries(r.headers ?? {}).map(([name, h]: [string, any]) => [name.toLowerCase(), {
            required: h.required === true,
            schema: h.schema ?? {}
          }]))
        }])
      )
      const security = (op.security ?? doc.security ?? []) as ReadonlyArray<Record<string, unknown>>
      return {
        id: String(op.operationId ?? `${method.toUpperCase()} ${path}`),
        method: method.toUpperCase(),
        path,
        parameters,
        body,
        responses,
        security: security.map((alternative) => Object.keys(alternative))
      }
    })
  )

const refName = (ref: string) => {
  const match = /^#\/components\/schemas\/(.+)$/.exec(ref)
  if (match === null || match[1] === undefined) throw new Error(`unsupported $ref ${ref}`)
  return decodeURIComponent(match[1].replace(/~1/g, "/").replace(/~0/g, "~"))
}

/** Follows `$ref`s (into `components.schemas`) until a schema that is not one. */
export const deref = (doc: OpenApiDocument, schema: Schema): Schema => {
  let current = schema
  for (let i = 0; i < 32 && typeof current["$ref"] === "string"; i++) {
    const { $ref, ...rest } = current
    const target = doc.components?.schemas?.[refName(String($ref))]
    if (target === undefined) throw new Error(`unresolved $ref ${String($ref)}`)
    current = { ...target, ...rest }
  }
  return current
}

// ---------------------------------------------------------------------------
// Validation (ajv, JSON Schema draft 2020-12, the dialect of OpenAPI 3.1)

const rewriteRefs = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(rewriteRefs)
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [
    key,
    key === "$ref" && typeof v === "string" ? `#/$defs/${refName(v).replace(/~/g, "~0").replace(/\//g, "~1")}` : rewriteRefs(v)
  ]))
}

/** Schema validators over the document: `$ref`s into components resolve. */
export const makeValidators = (doc: OpenApiDocument) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true })
  ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)
  ajv.addFormat("uri", (s: string) => /^[a-z][a-z0-9+.-]*:/i.test(s) && URL.canParse(s))
  ajv.addFormat("date-time", (s: string) => !Number.isNaN(Date.parse(s)))
  const defs = rewriteRefs(doc.components?.schemas ?? {}) as Record<string, unknown>
  const cache = new Map<Schema, ValidateFunction>()
  const compile = (schema: Schema): ValidateFunction => {
    const known = cache.get(schema)
    if (known !== undefined) return known
    const compiled = ajv.compile({ ...(rewriteRefs(schema) as object), $defs: defs })
    cache.set(schema, compiled)
    return compiled
  }
  /** The errors of `value` against `schema`, empty when it validates. */
  const errors = (schema: Schema, value: unknown): Array<string> => {
    const validate = compile(schema)
    if (validate(value)) return []
    return (validate.errors ?? []).slice(0, 6).map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`)
  }
  return { errors }
}
export type Validators = ReturnType<typeof makeValidators>

// ---------------------------------------------------------------------------
// Values the generator cannot know: resolved when the request is sent

/** A value taken from a pool of the run (an id it created, a token), resolved at send time. */
export class Ref {
  readonly pool: string
  readonly pick: number
  constructor(pool: string, pick: number) {
    this.pool = pool
    this.pick = pick
  }
}

/** A JSON literal sent verbatim (`99999999999999999999.99`, `1e400`, `-0`). */
export class RawJson {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

/** A path or query value sent verbatim, not percent-encoded (`%zz`, `%E0%A4%A`). */
export class RawParam {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

/** A required parameter or field left out on purpose. */
export const Missing: unique symbol = Symbol("missing")
export type Missing = typeof Missing

/** Realistic values by field or parameter name (the `examples` a schema does not carry). */
export type Hints = (name: string | undefined, schema: Schema) => fc.Arbitrary<unknown> | undefined

export interface GeneratorOptions {
  readonly doc: OpenApiDocument
  readonly hints: Hints
  /** An http(s) URL every generated `format: uri` value is built on (a loopback server: nothing else is ever called). */
  readonly urlBase: string
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER

const num = (v: unknown): number | undefined => typeof v === "number" ? v : undefined

/** Merges `allOf` members into one schema (enough for the documents Effect emits). */
const mergeAll = (doc: OpenApiDocument, schema: Schema): Schema => {
  const { allOf, ...rest } = schema
  if (!Array.isArray(allOf)) return schema
  return allOf.reduce((acc: Schema, part: Schema) => ({ ...acc, ...mergeAll(doc, deref(doc, part)) }), rest)
}

const typesOf = (schema: Schema): Array<string> =>
  Array.isArray(schema["type"])
    ? schema["type"].map(String)
    : typeof schema["type"] === "string"
    ? [schema["type"]]
    : schema["properties"] !== undefined
    ? ["object"]
    : []

const codePoints = (s: string) => [...s].length

/** A string arbitrary for a string schema, with unicode now and then. */
const stringOf = (schema: Schema): fc.Arbitrary<string> => {
  const minLength = num(schema["minLength"]) ?? 0
  const maxLength = num(schema["maxLength"])
  const cap = Math.max(minLength, Math.min(maxLength ?? 40, minLength + 40))
  const fits = (s: string) => codePoints(s) >= minLength && (maxLength === undefined || codePoints(s) <= maxLength)
  if (typeof schema["pattern"] === "string") {
    const regex = new RegExp(schema["pattern"], "u")
    return fc.stringMatching(regex).filter(fits)
  }
  const choices: Array<fc.WeightedArbitrary<string>> = [
    { weight: 8, arbitrary: fc.string({ minLength, maxLength: cap, unit: "grapheme-ascii" }) },
    { weight: 2, arbitrary: fc.string({ minLength, maxLength: cap, unit: "binary" }) },
    { weight: 2, arbitrary: fc.string({ minLength, maxLength: cap, unit: "grapheme" }) }
  ]
  // The boundary: exactly the longest string the document allows, in ASCII and in two-byte characters.
  if (maxLength !== undefined && maxLength >= minLength) {
    choices.push({ weight: 1, arbitrary: fc.constantFrom("a".repeat(maxLength), "é".repeat(maxLength)) })
  }
  return fc.oneof(...choices).filter(fits)
}

const loopbackUrl = (base: string): fc.Arbitrary<string> =>
  fc.tuple(
    fc.array(fc.stringMatching(/^[a-z0-9-]{1,12}$/), { maxLength: 3 }),
    fc.option(fc.stringMatching(/^[a-z]{1,6}=[a-z0-9]{0,8}$/), { nil: undefined })
  ).map(([segments, query]) => `${base}/${segments.join("/")}${query === undefined ? "" : `?${query}`}`)

/** The fast-check arbitrary of values valid for `schema`. */
export const validOf = (options: GeneratorOptions, raw: Schema, name?: string, depth = 0): fc.Arbitrary<unknown> => {
  const schema = mergeAll(options.doc, deref(options.doc, raw))
  const structural = structuralOf(options, schema, name, depth)
  const hint = options.hints(name, schema)
  return hint === undefined ? structural : fc.oneof({ weight: 3, arbitrary: hint }, { weight: 1, arbitrary: structural })
}

const structuralOf = (options: GeneratorOptions, schema: Schema, name: string | undefined, depth: number): fc.Arbitrary<unknown> => {
  if ("const" in schema) return fc.constant(schema["const"])
  if (Array.isArray(schema["enum"])) return fc.constantFrom(...(schema["enum"] as Array<unknown>))
  const alternatives = (schema["anyOf"] ?? schema["oneOf"]) as Array<Schema> | undefined
  if (Array.isArray(alternatives)) return fc.oneof(...alternatives.map((s) => validOf(options, s, name, depth + 1)))
  const types = typesOf(schema)
  if (types.length > 1) return fc.oneof(...types.map((type) => structuralOf(options, { ...schema, type }, name, depth)))
  switch (types[0]) {
    case "null":
      return fc.constant(null)
    case "boolean":
      return fc.boolean()
    case "integer": {
      const exMin = num(schema["exclusiveMinimum"])
      const exMax = num(schema["exclusiveMaximum"])
      const min = Math.max(num(schema["minimum"]) ?? -MAX_SAFE, exMin === undefined ? -MAX_SAFE : exMin + 1)
      const max = Math.min(num(schema["maximum"]) ?? MAX_SAFE, exMax === undefined ? MAX_SAFE : exMax - 1)
      return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max))
    }
    case "number": {
      const exMin = num(schema["exclusiveMinimum"])
      const exMax = num(schema["exclusiveMaximum"])
      const min = Math.max(num(schema["minimum"]) ?? exMin ?? -1e15, -1e15)
      const max = Math.min(num(schema["maximum"]) ?? exMax ?? 1e15, 1e15)
      const inside = (n: number) => n >= min && n <= max && n !== exMin && n !== exMax
      return fc.oneof(
        fc.double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded: exMin !== undefined, maxExcluded: exMax !== undefined }),
        fc.integer({ min: Math.ceil(min), max: Math.floor(max) }).filter(inside),
        fc.integer({ min: Math.ceil(min * 100), max: Math.floor(max * 100) }).map((n) => n / 100).filter(inside)
      )
    }
    case "string":
      if (schema["format"] === "uri") return loopbackUrl(options.urlBase)
      if (schema["format"] === "uuid") return fc.uuid()
      if (schema["format"] === "date-time") return fc.date({ noInvalidDate: true }).map((d) => d.toISOString())
      return stringOf(schema)
    case "array": {
      const prefix = (schema["prefixItems"] ?? []) as Array<Schema>
      const items = (schema["items"] ?? {}) as Schema
      const minItems = num(schema["minItems"]) ?? 0
      const maxItems = Math.min(num(schema["maxItems"]) ?? minItems + 4, minItems + 4)
      const rest = fc.array(validOf(options, items, name, depth + 1), {
        minLength: Math.max(0, minItems - prefix.length),
        maxLength: Math.max(0, maxItems - prefix.length)
      })
      return fc.tuple(fc.tuple(...prefix.map((s) => validOf(options, s, name, depth + 1))), rest).map(([a, b]) => [...a, ...b])
    }
    case "object": {
      const properties = (schema["properties"] ?? {}) as Record<string, Schema>
      const required = (schema["required"] ?? []) as Array<string>
      if (depth > 6) return fc.constant(Object.fromEntries(required.map((key) => [key, null])))
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, validOf(options, s, key, depth + 1)])),
        { requiredKeys: required.filter((key) => key in properties) }
      )
    }
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

// Invalid values --------------------------------------------------------------

/** Strings that break naive code: NUL, lone surrogates, RTL overrides, emoji, huge numbers, SQL and HTML. */
export const nastyStrings = fc.constantFrom(
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff\ud800",
  "\u202eevil",
  "\ufeff",
  "💥".repeat(33),
  "e\u0301\u0301\u0301",
  "Ω≈ç√∫˜µ≤≥÷",
  "' OR 1=1 --",
  "\"; DROP TABLE merchants; --",
  "<script>alert(1)</script>",
  "${jndi:ldap://127.0.0.1/x}",
  "../../../../etc/passwd",
  "%00",
  "99999999999999999999.99",
  "1e309",
  "-0",
  "NaN",
  "Infinity",
  "0x10",
  " ",
  "",
  "null",
  "true",
  "[]",
  "{}",
  "\\",
  "\n\r\t"
)

/** JSON numbers that do not fit a double or a 64-bit integer, or are odd to parse. */
export const nastyNumbers = fc.constantFrom(
  new RawJson("99999999999999999999.99"),
  new RawJson("1e309"),
  new RawJson("-1e309"),
  new RawJson("1E400"),
  new RawJson("-0"),
  new RawJson("0.1e-400"),
  new RawJson("123456789012345678901234567890"),
  new RawJson("1.0000000000000000000001"),
  9007199254740993,
  -9007199254740993,
  1e21,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  0.1 + 0.2,
  12.345,
  0.001
)

const wrongTypeOf = (types: Array<string>): fc.Arbitrary<unknown> => {
  const candidates: Array<fc.Arbitrary<unknown>> = []
  if (!types.includes("string")) candidates.push(fc.string({ maxLength: 8 }), fc.constantFrom("1", "true", "null"))
  if (!types.includes("number") && !types.includes("integer")) candidates.push(fc.integer(), fc.double(), nastyNumbers)
  if (!types.includes("boolean")) candidates.push(fc.boolean())
  if (!types.includes("null")) candidates.push(fc.constant(null))
  if (!types.includes("array")) candidates.push(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }))
  if (!types.includes("object")) candidates.push(fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }))
  return fc.oneof(...candidates)
}

/** Arbitrary values that are (usually) invalid for `schema`: wrong types, out of range, too long, missing fields, extra fields. */
export const invalidOf = (options: GeneratorOptions, raw: Schema, name?: string, depth = 0): fc.Arbitrary<unknown> => {
  const schema = mergeAll(options.doc, deref(options.doc, raw))
  const alternatives = (schema["anyOf"] ?? schema["oneOf"]) as Array<Schema> | undefined
  if (Array.isArray(alternatives)) {
    // Invalid for one alternative is often valid for another: the caller checks validity with ajv.
    return fc.oneof(...alternatives.map((s) => invalidOf(options, s, name, depth + 1)))
  }
  const types = typesOf(schema)
  const strategies: Array<fc.Arbitrary<unknown>> = [wrongTypeOf(types), nastyStrings]
  if (Array.isArray(schema["enum"])) {
    const allowed = schema["enum"] as Array<unknown>
    strategies.push(
      fc.string({ maxLength: 10 }).filter((s) => !allowed.includes(s)),
      fc.constantFrom(...allowed.filter((v): v is string => typeof v === "string").flatMap((v) => [v.toUpperCase() + "x", ` ${v}`, v.toUpperCase()]))
        .filter((s) => !allowed.includes(s))
    )
  }
  if (types.includes("integer") || types.includes("number")) {
    const min = num(schema["minimum"]) ?? num(schema["exclusiveMinimum"])
    const max = num(schema["maximum"]) ?? num(schema["exclusiveMaximum"])
    const edges: Array<unknown> = [1.5, -1, 0]
    if (min !== undefined) edges.push(min - 1, min - 0.001)
    if (num(schema["exclusiveMinimum"]) !== undefined) edges.push(num(schema["exclusiveMinimum"]))
    if (max !== undefined) edges.push(max + 1, max + 0.001, max * 10)
    strategies.push(fc.constantFrom(...edges), nastyNumbers)
  }
  if (types.includes("string")) {
    const maxLength = num(schema["maxLength"])
    const minLength = num(schema["minLength"])
    if (maxLength !== undefined) {
      strategies.push(fc.integer({ min: 1, max: 64 }).map((extra) => "x".repeat(maxLength + extra)))
      strategies.push(fc.constant("é".repeat(maxLength + 1)))
    }
    if (minLength !== undefined && minLength > 0) strategies.push(fc.constant("x".repeat(minLength - 1)))
    if (typeof schema["pattern"] === "string") {
      const regex = new RegExp(schema["pattern"], "u")
      strategies.push(fc.string({ maxLength: 12 }).filter((s) => !regex.test(s)))
    }
    if (schema["format"] === "uri") {
      strategies.push(fc.constantFrom(
        "not a url",
        "ftp://127.0.0.1/x",
        "javascript:alert(1)",
        "http://",
        "http:///x",
        "//127.0.0.1/x",
        "http://127.0.0.1:99999/x",
        "http://[::1",
        "file:///etc/passwd",
        "data:text/html,hi",
        `${options.urlBase}/${"x".repeat(2100)}`
      ))
    }
    if (schema["format"] === "uuid") strategies.push(fc.constantFrom("not-a-uuid", "00000000-0000-0000-0000-00000000000g"))
  }
  if (types.includes("array")) {
    const items = (schema["items"] ?? {}) as Schema
    const minItems = num(schema["minItems"]) ?? 0
    const maxItems = num(schema["maxItems"])
    if (minItems > 0) strategies.push(fc.constant([]))
    if (maxItems !== undefined) strategies.push(fc.constant(Array.from({ length: maxItems + 1 }, () => "ET")))
    strategies.push(
      fc.tuple(validOf(options, schema, name, depth + 1), invalidOf(options, items, name, depth + 1)).map(([valid, bad]) =>
        Array.isArray(valid) ? [...valid, bad] : [bad]
      )
    )
  }
  if (types.includes("object") && depth < 4) {
    const properties = (schema["properties"] ?? {}) as Record<string, Schema>
    const required = ((schema["required"] ?? []) as Array<string>).filter((key) => key in properties)
    const valid = validOf(options, schema, name, depth + 1) as fc.Arbitrary<Record<string, unknown>>
    if (required.length > 0) {
      strategies.push(fc.tuple(valid, fc.constantFrom(...required)).map(([v, key]) => {
        const { [key]: _dropped, ...rest } = v
        return rest
      }))
    }
    if (schema["additionalProperties"] === false) {
      strategies.push(
        fc.tuple(valid, fc.oneof(fc.string({ minLength: 1, maxLength: 10 }), fc.constantFrom("__proto__", "constructor", "id", "merchantId", "password", "accountStatus")), fc.jsonValue({ maxDepth: 1 }))
          .filter(([, key]) => !(key in properties))
          .map(([v, key, extra]) => {
            const copy = { ...v }
            Object.defineProperty(copy, key, { value: extra, enumerable: true, writable: true, configurable: true })
            return copy
          })
      )
    }
    const keys = Object.keys(properties)
    if (keys.length > 0) {
      strategies.push(
        fc.tuple(valid, fc.constantFrom(...keys)).chain(([v, key]) =>
          invalidOf(options, properties[key] ?? {}, key, depth + 1).map((bad) => ({ ...v, [key]: bad }))
        )
      )
      strategies.push(fc.tuple(valid, fc.constantFrom(...keys)).map(([v, key]) => ({ ...v, [key]: null })))
    }
  }
  return fc.oneof(...strategies)
}

// ---------------------------------------------------------------------------
// Requests

/** How a request carries its body, when it deviates from "JSON as documented". */
export type Envelope =
  | { readonly kind: "json" }
  | { readonly kind: "contentType"; readonly contentType: string | undefined }
  | { readonly kind: "malformed"; readonly text: string }
  | { readonly kind: "oversized"; readonly bytes: number }
  | { readonly kind: "emptyBody" }
  | { readonly kind: "noBody" }

/** The credential a request carries: the right one, none, or a wrong one. */
export type AuthChoice =
  | "good"
  | "none"
  | "garbage"
  | "expired"
  | "wrongSecret"
  | "wrongScope"
  | "crossed"
  | "malformedHeader"

/** One generated request, before the values of the run are filled in. */
export interface Plan {
  readonly op: Operation
  /** By parameter name: a value, a Ref, a RawParam, or Missing. Absent: not sent. */
  readonly params: Readonly<Record<string, unknown>>
  /** The body value (may hold Refs and RawJson); undefined when the operation has none or none is sent. */
  readonly body: unknown
  readonly bodyIntent: "valid" | "invalid" | "none"
  readonly envelope: Envelope
  readonly auth: AuthChoice
  readonly extraQuery: ReadonlyArray<readonly [string, string]>
  readonly headers: Readonly<Record<string, string>>
  /** A number for the choices made when the request is sent (which credential, which alternative). */
  readonly pick: number
}

/** Header values fetch can send (latin1, no CR/LF/NUL). */
const headerValue = fc.string({
  maxLength: 60,
  unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c))
})

const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.record({
  "x-request-id": fc.oneof(fc.uuid(), headerValue, fc.constant("r".repeat(200))),
  accept: fc.constantFrom("application/json", "*/*", "text/html", "application/xml", "text/csv", "application/problem+json", ""),
  "x-forwarded-for": fc.oneof(fc.constant("127.0.0.1"), headerValue)
}, { requiredKeys: [] })

/** Raw path/query texts that are not (valid) percent-encoding, or decode to odd things. */
const rawParams = fc.constantFrom(
  "%zz",
  "%",
  "%E0%A4%A",
  "%C0%AF",
  "%ED%A0%80",
  "%FF",
  "%00",
  "a%2Fb",
  "%20",
  "+",
  "%F0%9F%92%A5",
  "x%0D%0Ay"
).map((text) => new RawParam(text))

export interface PlanOptions extends GeneratorOptions {
  /** A Ref for a parameter, when the run has values for it (ids it created); undefined otherwise. */
  readonly refFor: (op: Operation, parameter: Parameter) => fc.Arbitrary<Ref> | undefined
}

/** A valid value of a parameter: mostly a real one of the run (an id it created) when there is a pool for it. */
const validParam = (options: PlanOptions, op: Operation, p: Parameter): fc.Arbitrary<unknown> => {
  const ref = options.refFor(op, p)
  const valid = validOf(options, p.schema, p.name)
  return ref === undefined ? valid : fc.oneof({ weight: 3, arbitrary: ref }, { weight: 1, arbitrary: valid })
}

/** A parameter value outside the document: invalid for its schema, not decodable, or a required one left out. */
const invalidParam = (options: PlanOptions, p: Parameter): fc.Arbitrary<unknown> => {
  const choices: Array<fc.WeightedArbitrary<unknown>> = [
    { weight: 3, arbitrary: invalidOf(options, p.schema, p.name) },
    { weight: 1, arbitrary: nastyStrings },
    { weight: 1, arbitrary: rawParams }
  ]
  if (p.required && p.in !== "path") choices.push({ weight: 1, arbitrary: fc.constant(Missing) })
  return fc.oneof(...choices)
}

const envelopes: fc.Arbitrary<Envelope> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "text/plain",
      "application/x-www-form-urlencoded",
      "application/xml",
      "multipart/form-data; boundary=x",
      "application/json; charset=utf-8",
      "application/JSON",
      "application/json; charset=latin1",
      "application/problem+json",
      "application/vnd.api+json",
      undefined
    ).map((contentType) => ({ kind: "contentType" as const, contentType }))
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom("{", "{\"a\":", "[1,]", "{'a':1}", "nul", "\"unterminated", "{\"a\":1}}", "\u0000", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\u0000\"}", "1e999999", "{}{}")
      .map((text) => ({ kind: "malformed" as const, text }))
  },
  { weight: 1, arbitrary: fc.constantFrom(65_537, 200_000).map((bytes) => ({ kind: "oversized" as const, bytes })) },
  { weight: 1, arbitrary: fc.constantFrom({ kind: "emptyBody" as const }, { kind: "noBody" as const }) }
)

const badAuth: fc.Arbitrary<AuthChoice> = fc.constantFrom("none", "garbage", "expired", "wrongSecret", "wrongScope", "crossed", "malformedHeader")

/**
 * The arbitrary of requests to `op`, in the manner of schemathesis' positive and negative phases: about
 * half are valid in every part (parameters, body, content type, credential), the others differ from a
 * valid request in one part only — one parameter invalid or missing, an invalid body, a broken envelope
 * (malformed JSON, another content type, too large, no body), a wrong credential, or unknown query
 * parameters — so each answer says something about that part.
 */
export const planOf = (options: PlanOptions, op: Operation): fc.Arbitrary<Plan> => {
  const params = fc.record(
    Object.fromEntries(op.parameters.map((p) => [p.name, validParam(options, op, p)])),
    { requiredKeys: op.parameters.filter((p) => p.required).map((p) => p.name) }
  ) as fc.Arbitrary<Record<string, unknown>>
  const body = op.body === undefined ? fc.constant(undefined) : validOf(options, op.body.schema)
  const valid = fc.record({ params, body, headers: extraHeaders, pick: fc.nat() }).map((r): Plan => ({
    op,
    params: r.params,
    body: r.body,
    bodyIntent: op.body === undefined ? "none" : "valid",
    envelope: { kind: "json" },
    auth: "good",
    extraQuery: [],
    headers: r.headers,
    pick: r.pick
  }))
  const mutations: Array<fc.WeightedArbitrary<Plan>> = [{ weight: 8, arbitrary: valid }]
  if (op.parameters.length > 0) {
    mutations.push({
      weight: 3,
      arbitrary: fc.tuple(valid, fc.constantFrom(...op.parameters)).chain(([plan, p]) =>
        invalidParam(options, p).map((value): Plan => ({ ...plan, params: { ...plan.params, [p.name]: value } }))
      )
    })
  }
  if (op.body !== undefined) {
    const schema = op.body.schema
    mutations.push({
      weight: 3,
      arbitrary: fc.tuple(valid, invalidOf(options, schema)).map(([plan, body]): Plan => ({ ...plan, body, bodyIntent: "invalid" }))
    })
    mutations.push({ weight: 2, arbitrary: fc.tuple(valid, envelopes).map(([plan, envelope]): Plan => ({ ...plan, envelope })) })
  } else {
    // A body where none is documented: it must be ignored or refused, never a 5xx.
    mutations.push({
      weight: 1,
      arbitrary: fc.tuple(valid, fc.jsonValue({ maxDepth: 2 })).map(([plan, body]): Plan => ({ ...plan, body }))
    })
  }
  if (op.security.length > 0) {
    mutations.push({ weight: 2, arbitrary: fc.tuple(valid, badAuth).map(([plan, auth]): Plan => ({ ...plan, auth })) })
  }
  mutations.push({
    weight: 1,
    arbitrary: fc.tuple(
      valid,
      fc.array(fc.tuple(fc.stringMatching(/^[a-zA-Z_]{1,10}$/), fc.string({ maxLength: 10 })), { minLength: 1, maxLength: 2 })
    ).map(([plan, extraQuery]): Plan => ({ ...plan, extraQuery }))
  })
  return fc.oneof(...mutations)
}

/** Serialises a body value to JSON text, writing RawJson literals verbatim. */
export const jsonText = (value: unknown): string => {
  const raws: Array<string> = []
  const text = JSON.stringify(value, (_key, v) => {
    if (v instanceof RawJson) {
      raws.push(v.text)
      return `\u0001RAW${raws.length - 1}\u0001`
    }
    return v
  })
  if (text === undefined) return "null"
  return text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)] ?? "null")
}

/** Percent-encodes a value (lone surrogates, which UTF-8 cannot carry, become U+FFFD). */
const encodeValue = (value: unknown): string =>
  value instanceof RawParam
    ? value.text
    : encodeURIComponent((typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value)).toWellFormed())

/**
 * A path segment fetch sends as it is: `.` and `..` (also as `%2e`) are dot segments that the client's URL
 * parser resolves away (`/merchants/../x` is sent as `/x`), so the request would reach another route.
 */
const pathSegment = (text: string) => text === "" ? "%20" : /^(\.|%2e){1,2}$/i.test(text) ? `_${text}` : text

/** The path and query string of a plan whose Refs are resolved. */
export const urlOf = (
  op: Operation,
  params: Readonly<Record<string, unknown>>,
  extraQuery: ReadonlyArray<readonly [string, string]>
): string => {
  let path = op.path
  const query: Array<string> = []
  for (const p of op.parameters) {
    if (!(p.name in params)) continue
    const value = params[p.name]
    if (value === Missing) continue
    if (p.in === "path") {
      path = path.replace(`{${p.name}}`, pathSegment(encodeValue(value)))
    } else if (p.in === "query") {
      // An array is sent as repeated parameters (OpenAPI's default `form`, exploded) when the schema is one.
      const values = Array.isArray(value) && p.schema["type"] === "array" ? value : [value]
      for (const v of values) query.push(`${encodeURIComponent(p.name)}=${encodeValue(v)}`)
    }
  }
  for (const [name, value] of extraQuery) query.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
  return query.length === 0 ? path : `${path}?${query.join("&")}`
}

// ---------------------------------------------------------------------------
// Checks

export interface Sent {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
}

export interface Received {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

export interface Failure {
  readonly check: string
  readonly op: string
  readonly message: string
  readonly request: Sent
  readonly response: { readonly status: number; readonly contentType: string | null; readonly body: string } | undefined
}

/** Statuses the API documents for every operation (the description of the document), answered as problem+json. */
export const genericStatuses = [400, 401, 403, 404, 405, 413, 415, 429] as const

const genericProblem = (status: number): Schema => ({
  type: "object",
  properties: {
    success: { const: false },
    status: { const: status },
    code: { type: "string", pattern: "^[A-Z][A-Z0-9_]*$" },
    title: { type: "string" },
    detail: { type: "string" }
  },
  required: ["success", "status", "code", "title", "detail"],
  additionalProperties: false
})

const mediaType = (contentType: string) => {
  const [type = "", ...params] = contentType.split(";").map((s) => s.trim().toLowerCase())
  const charset = params.find((p) => p.startsWith("charset="))?.slice("charset=".length).replace(/"/g, "")
  return { type, charset }
}

const isJsonType = (type: string) => type === "application/json" || type.endsWith("+json")

export interface CheckContext {
  readonly validators: Validators
  /** The request was invalid per the document (a required value missing, a value outside its schema, a bad body). */
  readonly invalidPerDocument: string | undefined
  /** The request carried no or a wrong credential on purpose. */
  readonly badCredential: boolean
}

/**
 * The checks of schemathesis that apply to one answer: not a server error,
 * the status documented, the content type documented, the body valid for
 * its schema, documented headers present and valid, invalid requests
 * rejected (negative data), bad credentials rejected (ignored auth), and a
 * 405 consistent with its `allow` header.
 */
export const checkAnswer = (op: Operation | undefined, sent: Sent, got: Received, context: CheckContext): Array<Omit<Failure, "request" | "response">> => {
  const failures: Array<Omit<Failure, "request" | "response">> = []
  const opId = op?.id ?? "undocumented route"
  const fail = (check: string, message: string) => failures.push({ check, op: opId, message })
  const status = got.status
  if (status >= 500) fail("not_a_server_error", `answered ${status}`)
  const documented = op?.responses[String(status)]
  const generic = (genericStatuses as ReadonlyArray<number>).includes(status)
  if (documented === undefined && !generic) {
    fail("status_code_conformance", `status ${status} is not documented (documented: ${Object.keys(op?.responses ?? {}).join(", ") || "none"})`)
  }
  const contentType = got.headers.get("content-type")
  const expected: Record<string, Schema> = documented !== undefined
    ? documented.content
    : status >= 400
    ? { "application/problem+json": genericProblem(status) }
    : {}
  const expectedTypes = Object.keys(expected)
  if (sent.method === "HEAD") {
    // HEAD answers carry no body: only the status and the checks below apply.
  } else if (expectedTypes.length === 0) {
    if (documented !== undefined && got.text !== "") fail("content_type_conformance", `documented without a body, answered ${contentType ?? "no content-type"} with ${got.text.length} bytes`)
  } else if (contentType === null) {
    fail("content_type_conformance", `no content-type; documented: ${expectedTypes.join(", ")}`)
  } else {
    const actual = mediaType(contentType)
    const match = expectedTypes.find((t) => {
      const wanted = mediaType(t)
      return wanted.type === actual.type && (wanted.charset === undefined || wanted.charset === actual.charset)
    })
    if (match === undefined) {
      fail("content_type_conformance", `content-type ${contentType}; documented: ${expectedTypes.join(", ")}`)
    } else {
      const schema = expected[match] ?? {}
      let value: unknown = got.text
      let parsed = true
      if (isJsonType(actual.type)) {
        try {
          value = JSON.parse(got.text)
        } catch {
          parsed = false
          fail("response_schema_conformance", `body is not JSON: ${got.text.slice(0, 80)}`)
        }
      }
      if (parsed) {
        const errors = context.validators.errors(schema, value)
        if (errors.length > 0) fail("response_schema_conformance", errors.join("; "))
      }
    }
  }
  for (const [name, header] of Object.entries(documented?.headers ?? {})) {
    const value = got.headers.get(name)
    if (value === null) {
      if (header.required) fail("response_headers_conformance", `documented header ${name} missing`)
    } else {
      const errors = context.validators.errors(header.schema, value)
      if (errors.length > 0) fail("response_headers_conformance", `header ${name}: ${value}: ${errors.join("; ")}`)
    }
  }
  if (status >= 200 && status < 300 && context.invalidPerDocument !== undefined) {
    fail("negative_data_rejection", `accepted with ${status} a request that is invalid per the document: ${context.invalidPerDocument}`)
  }
  if (status >= 200 && status < 300 && context.badCredential && (op?.security.length ?? 0) > 0) {
    fail("ignored_auth", `answered ${status} without a valid credential`)
  }
  if (status === 405) {
    const allow = got.headers.get("allow")
    if (allow === null) fail("unsupported_method", "405 without an allow header")
    else if (allow.split(",").map((m) => m.trim().toUpperCase()).includes(sent.method)) {
      fail("unsupported_method", `405 for ${sent.method} while allow lists it: ${allow}`)
    }
  }
  return failures
}
