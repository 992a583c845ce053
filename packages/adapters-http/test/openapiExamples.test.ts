import { OpenApi } from "effect/http-api"
import { Ajv2020 } from "ajv/dist/2020.js"
import { describe, expect, it } from "vitest"
import { Api } from "@gateway/client/api/Api"
import { examples } from "@gateway/client/api/Examples"

/**
 * `/openapi.json` as integrators read it: every operation and webhook shows an example of each body it takes and
 * answers, every parameter has a description and an example, and every example is valid against its schema (ajv,
 * JSON Schema 2020-12, the dialect of OpenAPI 3.1) and decodes with the gateway's own Schema; every field is described.
 * Schema names and response descriptions are for people, not the code's identifiers.
 */
const doc: any = OpenApi.fromApi(Api)
const schemas: Record<string, any> = doc.components.schemas
const methods = ["get", "put", "post", "delete", "patch"]

const toDefs = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(toDefs)
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [
    key,
    key === "$ref" && typeof v === "string" ? v.replace("#/components/schemas/", "#/$defs/") : toDefs(v)
  ]))
}
const ajv = new Ajv2020({ strict: false, allErrors: true })
ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)
ajv.addFormat("uri", (s: string) => URL.canParse(s))
const defs = toDefs(schemas)
const errorsOf = (schema: unknown, value: unknown): string => {
  const validate = ajv.compile({ ...(toDefs(schema) as object), $defs: defs })
  return validate(value) ? "" : ajv.errorsText(validate.errors)
}
const deref = (schema: any): any => schema?.$ref === undefined ? schema : schemas[schema.$ref.split("/").pop()]
const exampleOf = (media: any): ReadonlyArray<unknown> => {
  if (media.example !== undefined) return [media.example]
  const schema = deref(media.schema)
  if (Array.isArray(schema?.examples)) return schema.examples
  return (schema?.anyOf ?? []).flatMap((arm: any) => deref(arm)?.examples ?? [])
}

interface Operation {
  readonly name: string
  readonly op: any
}
const operations: ReadonlyArray<Operation> = [
  ...Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    methods.filter((m) => item[m] !== undefined).map((m) => ({ name: `${m.toUpperCase()} ${path}`, op: item[m] }))
  ),
  ...Object.entries<any>(doc.webhooks).map(([name, item]) => ({ name: `webhook ${name}`, op: item.post }))
]

describe("the OpenAPI document's examples and descriptions", () => {
  it("documents 90 operations and 9 webhooks", () => {
    expect(operations).toHaveLength(90)
  })

  it("shows a valid example of every request and response body", () => {
    const missing: Array<string> = []
    const invalid: Array<string> = []
    for (const { name, op } of operations) {
      const bodies = [
        ...Object.entries<any>(op.requestBody?.content ?? {}).map(([type, media]) => [`request ${type}`, media]),
        ...Object.entries<any>(op.responses).flatMap(([status, response]) =>
          Object.entries<any>(response.content ?? {}).map(([type, media]) => [`${status} ${type}`, media])
        )
      ]
      for (const [what, media] of bodies) {
        const found = exampleOf(media)
        if (found.length === 0) missing.push(`${name} ${what}`)
        if (typeof media.example === "string" && media.schema?.type === "string") continue
        for (const value of found) {
          const errors = errorsOf(media.schema, value)
          if (errors !== "") invalid.push(`${name} ${what}: ${errors}`)
        }
      }
    }
    expect(missing).toEqual([])
    expect(invalid).toEqual([])
  })

  it("describes every parameter and gives it a valid example", () => {
    const problems: Array<string> = []
    for (const { name, op } of operations) {
      for (const parameter of op.parameters ?? []) {
        const where = `${name} ${parameter.in} ${parameter.name}`
        if (typeof parameter.description !== "string" || parameter.description === "") problems.push(`${where}: no description`)
        if (parameter.example === undefined) problems.push(`${where}: no example`)
        else {
          const errors = errorsOf(parameter.schema, parameter.example)
          if (errors !== "") problems.push(`${where}: ${errors}`)
        }
      }
    }
    expect(problems).toEqual([])
  })

  it("has a valid example under every named object schema", () => {
    const problems: Array<string> = []
    for (const [name, schema] of Object.entries(schemas)) {
      if (schema.type !== "object") continue
      if (!Array.isArray(schema.examples) || schema.examples.length === 0) problems.push(`${name}: no example`)
      for (const value of schema.examples ?? []) {
        const errors = errorsOf({ $ref: `#/components/schemas/${name}` }, value)
        if (errors !== "") problems.push(`${name}: ${errors}`)
      }
    }
    expect(problems).toEqual([])
  })

  it("has examples the gateway itself decodes", () => {
    const refused = examples.flatMap(({ decode }) => {
      try {
        decode()
        return []
      } catch (error) {
        return [String(error)]
      }
    })
    expect(refused).toEqual([])
  })

  it("describes every field of every body", () => {
    const undescribed: Array<string> = []
    const visit = (schema: any, where: string): void => {
      if (typeof schema !== "object" || schema === null) return
      for (const [name, property] of Object.entries<any>(schema.properties ?? {})) {
        if (property.$ref === undefined && typeof property.description !== "string") undescribed.push(`${where}.${name}`)
        visit(property, `${where}.${name}`)
      }
      if (schema.items !== undefined) visit(schema.items, `${where}[]`)
      for (const arm of [...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) visit(arm, where)
    }
    for (const [name, schema] of Object.entries(schemas)) visit(schema, name)
    for (const { name, op } of operations) {
      for (const [status, response] of Object.entries<any>({ request: op.requestBody ?? {}, ...op.responses })) {
        for (const media of Object.values<any>(response.content ?? {})) visit(media.schema, `${name} ${status}`)
      }
    }
    expect(undescribed).toEqual([])
  })

  it("names schemas and describes responses for people", () => {
    expect(Object.keys(schemas).filter((name) => !/^[A-Z][A-Za-z0-9]+$/.test(name))).toEqual([])
    const internal = operations.flatMap(({ name, op }) =>
      Object.entries<any>(op.responses).filter(([, r]) => /@gateway|\||^</.test(r.description)).map(([s]) => `${name} ${s}`)
    )
    expect(internal).toEqual([])
  })

  it("has no anyOf or oneOf of one schema or of two equal ones", () => {
    const found: Array<string> = []
    const visit = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((item, i) => visit(item, `${where}/${i}`))
      if (typeof node !== "object" || node === null) return
      for (const [key, value] of Object.entries(node)) {
        if ((key === "anyOf" || key === "oneOf") && Array.isArray(value)) {
          const arms = value.map((arm) => JSON.stringify(arm))
          if (arms.length < 2 || new Set(arms).size < arms.length) found.push(`${where}/${key}`)
        }
        visit(value, `${where}/${key}`)
      }
    }
    visit(doc, "#")
    expect(found).toEqual([])
  })
})
