import { Schema, SchemaAST } from "effect"
import { examples } from "./Examples.ts"

/**
 * The last `OpenApi.Transform` of the Api: what Effect does not write into `/openapi.json` from annotations alone.
 * - Each named schema gets its wire example from `Examples.ts` (Effect writes an `examples` annotation as it is,
 *   without encoding it: a `bigint` or a `DateTime` would be dropped or be wrong).
 * - A parameter takes its schema's `description` and first example up (Effect leaves them inside `schema`, where
 *   Redocly, Scalar and openapi-typescript do not show them for the parameter).
 * - A response described only by its schema's identifier is described by the schema's description.
 * - A non-empty array is written without a one-item `prefixItems` (the same constraint, which some tools misread).
 * - A property that may be `null` is described by its non-null alternative, one with checks by their description
 *   (Effect writes a description given after a check into the check's `allOf`).
 * - Bodies that are not JSON (CSV, HTML, SVG, Prometheus text) get an example of their text.
 */

/** The component name Effect gives a schema: the identifier of what it encodes to (a class's struct), else its own. */
const componentName = (schema: Schema.Top): string => {
  const encoded = schema.ast.encoding?.at(-1)?.to
  const name = (encoded === undefined ? undefined : SchemaAST.resolveIdentifier(encoded)) ??
    SchemaAST.resolveIdentifier(schema.ast)
  if (name === undefined) throw new Error("an example's schema needs an identifier")
  return name
}

const textExamples: Record<string, string> = {
  "text/csv; charset=utf-8": "roundId,createdAt,playerId,gameId,sessionId,mode,status,stake,payout,currency," +
    "transactionId,type,amount,transactionStatus,shopId,freeRoundGrantId,roundDetailsUrl\r\n7c1e9a3b-5d2f-4e6a-8b0c-1d3e5f7a9b2c,2026-11-25T09:42:17.000Z," +
    "player-1001,odd-even,0b6f5c8e-2a4d-4f1b-9c3e-7d8a1b2c3d4e,real,settled,5.00,9.73,EUR," +
    "msg_9d2c4e1a-5b7f-4c3d-8e9a-1b2c3d4e5f60,debit,5.00,delivered,,," +
    "https://gateway.example.com/rounds/7c1e9a3b-5d2f-4e6a-8b0c-1d3e5f7a9b2c?sig=q3Jm0vX9cE2tLwYhR5uN8aKpD1fB6gZs4iOe7TyMxHc\r\n",
  "text/html; charset=utf-8": "<!doctype html><html lang=\"en\"><head><title>Odd Even</title></head><body>…</body></html>",
  "image/svg+xml": "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 256 256\">…</svg>",
  "text/javascript; charset=utf-8": "\"use strict\";(()=>{…})();",
  "text/css; charset=utf-8": ":root{color-scheme:light dark}…",
  "text/plain; version=0.0.4; charset=utf-8": "# HELP gateway_launches_total Launch URLs asked for, by outcome.\n" +
    "# TYPE gateway_launches_total counter\ngateway_launches_total{outcome=\"ok\"} 1840\n"
}

const summaryCsv = "key,rounds,bets,wins,refunds,ggr,currency,freeWins\r\nodd-even,1840,9200.00,8810.40,15.00,374.60,EUR,12.00\r\n"

const methods = ["get", "put", "post", "delete", "patch"] as const

/**
 * What each parameter is, with an example, by `in` and name (a path in the key when one name means two things).
 * Effect keeps a query or path parameter's description on the decoded side of its transformation (a number, a
 * date), which the document does not show; `openapiExamples.test.ts` checks each example against its schema.
 */
const parameterDocs: Record<string, { readonly description: string; readonly example: unknown }> = {
  "query page": { description: "Page number, from 1 (default 1)", example: "1" },
  "query limit": { description: "Items per page, 1 to 100 (default 20)", example: "20" },
  "query search": {
    description: "Case-insensitive part of the name or id (games) or of the e-mail or company name (merchants), " +
      "taken literally",
    example: "casino"
  },
  "query status": { description: "Only the rows in this status", example: "active" },
  "/webhook-deliveries query status": { description: "Only `failed` is supported", example: "failed" },
  "/operator-api/rounds query status": { description: "Only the rounds in this status", example: "settled" },
  "path id": { description: "The merchant's id", example: "42" },
  "/operator-api/games/{id} path id": { description: "The game's id: 1 to 64 lower-case letters, digits or `-`", example: "odd-even" },
  "/operator-api/free-rounds/{id} path id": { description: "The grant's id, as the grant's answer gives it", example: "3f6c1a2b-7d4e-4b8a-9c0d-1e2f3a4b5c6d" },
  "path slug": { description: "The API key's slug: the part after the last `.` of the key", example: "k3y5lug42" },
  "path deliveryId": { description: "The failed message's id (its `webhook-id`)", example: "msg_4a6b8c0d-2e4f-4a1b-9c3d-5e6f7a8b9c0d" },
  "path gameId": { description: "The built-in game's id", example: "odd-even" },
  "path roundId": { description: "The round's id, as a round's answer gives it", example: "7c1e9a3b-5d2f-4e6a-8b0c-1d3e5f7a9b2c" },
  "path transactionId": { description: "The wallet transaction's id (the message's `webhook-id`)", example: "msg_9d2c4e1a-5b7f-4c3d-8e9a-1b2c3d4e5f60" },
  "path userId": { description: "The back-office user's id, as the users list gives it", example: "17" },
  "path file": { description: "The image's file name: `<gameId>.svg`", example: "odd-even.svg" },
  "query sig": {
    description: "The link's signature: base64url HMAC-SHA256 of the round id with a key of the gateway (as the link gives it)",
    example: "q3Zr9X1cVb7mN0pL4kJ8hG2fD6sA5wE3tY1uI9oP0aQ"
  },
  "query token": { description: "The launch token: a JWT, valid once, as `generate-launch-url` put it in the URL", example: "eyJhbGciOiJFZERTQSJ9.eyJhdWQiOiJsYXVuY2gifQ.c2ln" },
  "query gameId": { description: "The game's id", example: "odd-even" },
  "query playerId": { description: "The player's id in the operator's system", example: "player-1001" },
  "query sessionId": { description: "The operator's own session id, sent back in the Details call and the wallet messages", example: "sess-7f3a9c" },
  "query mode": { description: "`real` (money, through the operator's wallet) or `demo` (virtual balance); default `real`", example: "real" },
  "query disableGameLobby": { description: "`true` to open the game alone, without the lobby of built-in games; default `false`", example: "false" },
  "query lobbyUrl": { description: "The operator's site (absolute http(s) URL, at most 2048 characters): the page's exit button and its error screens lead there", example: "https://casino.example/lobby" },
  "query language": { description: "The page's language, a BCP 47 tag: `en`, `fr`, `am` or `sw` (a region such as `fr-CA` is ignored); any other: `en`", example: "fr" },
  "query realityCheckMinutes": { description: "Every this many minutes (5 to 120) the page shows the session's time and net result, with continue or leave", example: "30" },
  "query currency": { description: "The player's currency (ISO 4217); when given it must be the merchant's, else 422 CURRENCY_MISMATCH", example: "EUR" },
  "query sortBy": { description: "The field to sort by; default `name`", example: "releaseDate" },
  "query sortOrder": { description: "`ASC` or `DESC`; default `ASC`", example: "DESC" },
  "query searchFields": { description: "The fields `search` looks in (`name`, `id`), repeated or comma-separated; default both", example: ["name"] },
  "query from": { description: "Start of the period, inclusive (ISO 8601 date-time with offset)", example: "2026-11-01T00:00:00Z" },
  "query to": { description: "End of the period, exclusive; at most 366 days after `from`", example: "2026-12-01T00:00:00Z" },
  "query groupBy": { description: "One group per `day` (UTC), `game`, `player` or retail `shop`; default `day`", example: "game" },
  "query roundId": { description: "Only this round: its id, as a round or a webhook's `roundId` gives it", example: "7c1e9a3b-5d2f-4e6a-8b0c-1d3e5f7a9b2c" },
  "query transactionId": {
    description: "Only the round of this wallet transaction (a debit, credit or refund id: the `webhook-id`)",
    example: "9d2c4e1a-5b7f-4c3d-8e9a-1b2c3d4e5f60"
  },
  "/backoffice/rounds query status": { description: "Only the rounds in this status", example: "settled" },
  "/backoffice/deliveries query status": { description: "Only the messages in this status; absent: every status", example: "failed" },
  "/backoffice/deliveries/{deliveryId} path deliveryId": { description: "The message's id (its `webhook-id`)", example: "msg_4a6b8c0d-2e4f-4a1b-9c3d-5e6f7a8b9c0d" },
  "query shopId": {
    description: "The retail shop (CONTRACT §11), 1 to 64 characters: at launch, asked of the merchant's `shopDetailsUrl`; in reports, only that shop's rounds",
    example: "shop-addis-01"
  }
}

const docsOf = (path: string, parameter: Record<string, any>) => {
  const key = `${parameter["in"]} ${parameter["name"]}`
  const specific = Object.keys(parameterDocs).find((k) => k.endsWith(` ${key}`) && k.startsWith("/") && path.includes(k.split(" ")[0] ?? ""))
  return parameterDocs[specific ?? key]
}

const withParameterDocs = (path: string) => (parameter: Record<string, any>): Record<string, any> => {
  const schema: Record<string, any> = parameter["schema"] ?? {}
  const { description: own, examples: schemaExamples, ...rest } = schema
  const docs = docsOf(path, parameter)
  const description = typeof own === "string" ? own.charAt(0).toUpperCase() + own.slice(1) : docs?.description
  const example = Array.isArray(schemaExamples) ? schemaExamples[0] : docs?.example
  return {
    ...parameter,
    ...(description !== undefined && parameter["description"] === undefined ? { description } : {}),
    ...(example !== undefined && parameter["example"] === undefined ? { example } : {}),
    schema: rest
  }
}

/** Problem bodies of one status declared twice (an endpoint's and its middleware's codes): one body, all codes. */
const mergeProblems = (media: Record<string, any>): Record<string, any> => {
  const arms: Array<Record<string, any>> | undefined = media["schema"]?.anyOf
  if (arms === undefined || !arms.every((arm) => Array.isArray(arm["properties"]?.code?.enum))) return media
  const [first, ...rest] = arms
  const codes = [...new Set(arms.flatMap((arm) => arm["properties"].code.enum))]
  const seen = new Set<string>()
  const examples = arms.flatMap((arm) => arm["examples"] ?? []).filter((e) => !seen.has(e.code) && seen.add(e.code))
  if (first === undefined || rest.length === 0) return media
  return {
    ...media,
    schema: {
      ...first,
      properties: { ...first["properties"], code: { ...first["properties"].code, enum: codes } },
      description: `${String(first["description"]).split(":")[0]}: ${codes.join(", ")}`,
      examples
    }
  }
}

const withResponseDocs = (
  response: Record<string, any>,
  schemas: Record<string, any>,
  path: string
): Record<string, any> => {
  const content: Record<string, any> | undefined = response["content"]
  const ref: string | undefined = content?.["application/json"]?.schema?.$ref
  const named = ref === undefined ? undefined : schemas[ref.split("/").pop() ?? ""]
  const internal = typeof response["description"] === "string" && response["description"].startsWith("@gateway/")
  const described = internal && typeof named?.description === "string" ? { description: named.description } : {}
  if (content === undefined) return { ...response, ...described }
  const problem = content["application/problem+json"]
  const merged = problem === undefined ? undefined : mergeProblems(problem)
  const single = merged?.schema?.description === undefined || problem === merged ? {} : { description: merged.schema.description }
  const withText = Object.fromEntries(Object.entries(content).map(([type, media]) => {
    if (type === "application/problem+json") return [type, merged]
    const text = type.startsWith("text/csv") && path.endsWith("/summary") ? summaryCsv : textExamples[type]
    return [type, text === undefined || media.example !== undefined ? media : { ...media, example: text }]
  }))
  return { ...response, ...described, ...single, content: withText }
}

/** A property described only inside its `anyOf` (a nullable one) or `allOf` (its checks) takes that description. */
const describedIn = (schema: any): string | undefined =>
  typeof schema?.description === "string"
    ? schema.description
    : [...(schema?.anyOf ?? []), ...(schema?.allOf ?? [])].map(describedIn).find((d) => d !== undefined)

/** An `allOf` arm that only held a description, once hoisted, goes; an `allOf` of one schema becomes that schema. */
const withoutBareDescriptions = (property: any): any => {
  if (!Array.isArray(property.allOf) || typeof property.description !== "string") return property
  const { allOf, ...rest } = property
  const arms = allOf.filter((arm: any) => !(Object.keys(arm).length === 1 && typeof arm.description === "string"))
  if (arms.length === 0) return rest
  if (arms.length === 1 && Object.keys(rest).every((key) => key === "description")) return { ...arms[0], ...rest }
  return { ...rest, allOf: arms }
}

/**
 * A non-empty array is `prefixItems: [X]` + `items: X` + `minItems: 1` from Effect; `items: X` + `minItems: 1` says
 * the same, and tools that read `prefixItems` as a tuple (openapi-typescript 6: `[X]`) then type it right.
 */
const withoutOneItemPrefix = (schema: Record<string, any>): Record<string, any> => {
  const prefix = schema["prefixItems"]
  if (!Array.isArray(prefix) || prefix.length !== 1 || (schema["minItems"] ?? 0) < 1) return schema
  if (JSON.stringify(prefix[0]) !== JSON.stringify(schema["items"])) return schema
  const { prefixItems: _, ...rest } = schema
  return rest
}

const withPropertyDocs = (schema: any): any => {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema
  const out: Record<string, any> = withoutOneItemPrefix(schema)
  if (out["properties"] !== undefined) {
    out["properties"] = Object.fromEntries(Object.entries<any>(out["properties"]).map(([name, property]) => {
      const described = property.description === undefined ? describedIn(property) : undefined
      return [name, withPropertyDocs(withoutBareDescriptions(described === undefined ? property : { ...property, description: described }))]
    }))
  }
  if (out["items"] !== undefined) out["items"] = withPropertyDocs(out["items"])
  return out
}

/** `OpenApi.Transform` of the Api: examples and descriptions where the annotations cannot put them (above). */
export const withExamples = (spec: Record<string, any>): Record<string, any> => {
  const schemas: Record<string, any> = { ...spec["components"]?.schemas }
  for (const { schema, value } of examples) {
    const name = componentName(schema)
    if (schemas[name] === undefined) throw new Error(`an example names ${name}, which the document does not have`)
    schemas[name] = { ...schemas[name], examples: [value] }
  }
  for (const [name, schema] of Object.entries(schemas)) schemas[name] = withPropertyDocs(schema)
  const paths: Record<string, any> = {}
  for (const [path, item] of Object.entries<Record<string, any>>(spec["paths"] ?? {})) {
    const next: Record<string, any> = { ...item }
    for (const method of methods) {
      const op = item[method]
      if (op === undefined) continue
      next[method] = {
        ...op,
        parameters: (op.parameters ?? []).map(withParameterDocs(path)),
        responses: Object.fromEntries(
          Object.entries<Record<string, any>>(op.responses ?? {}).map(([status, response]) => [
            status,
            withResponseDocs(response, schemas, path)
          ])
        )
      }
    }
    paths[path] = next
  }
  return { ...spec, paths, components: { ...spec["components"], schemas } }
}
