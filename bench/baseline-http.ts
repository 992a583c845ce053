/**
 * The baseline's HTTP plumbing: JSON answers, problem+json errors shaped as
 * the gateway's (CONTRACT §1), query parsing helpers, and the API key check
 * (lookup by slug, SHA-256 compare, merchant active), one query per request.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import type { ServerResponse } from "node:http"
import type pg from "pg"

const titles: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  422: "Unprocessable Content",
  500: "Internal Server Error",
  502: "Bad Gateway",
  504: "Gateway Timeout"
}

/** An error answer. */
export class Problem extends Error {
  readonly status: number
  readonly code: string
  constructor(status: number, code: string, detail: string) {
    super(detail)
    this.status = status
    this.code = code
  }
}

/** Writes a JSON answer. */
export const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers })
  res.end(text)
}

/** Writes an error as `application/problem+json`; anything else is a 500. */
export const sendProblem = (res: ServerResponse, error: unknown) => {
  const problem = error instanceof Problem ? error : new Problem(500, "INTERNAL_ERROR", "internal error")
  if (!(error instanceof Problem)) console.error(error)
  const text = JSON.stringify({
    success: false,
    status: problem.status,
    code: problem.code,
    title: titles[problem.status] ?? "Error",
    detail: problem.message
  })
  res.writeHead(problem.status, { "content-type": "application/problem+json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

/** A 400 VALIDATION_FAILED naming the field. */
export const invalid = (field: string, detail: string): Problem => new Problem(400, "VALIDATION_FAILED", `${field}: ${detail}`)

/** An integer query parameter within [min, max], or its default when absent. */
export const intParam = (query: URLSearchParams, name: string, fallback: number, min: number, max: number): number => {
  const text = query.get(name)
  if (text === null) return fallback
  const value = Number(text)
  if (!/^-?\d+$/.test(text) || value < min || value > max) throw invalid(name, `must be an integer in [${min}, ${max}]`)
  return value
}

/** A query parameter that must be one of `values`, or its default when absent. */
export const oneOf = <A extends string>(query: URLSearchParams, name: string, values: ReadonlyArray<A>, fallback: A): A => {
  const text = query.get(name)
  if (text === null) return fallback
  const found = values.find((value) => value === text)
  if (found === undefined) throw invalid(name, `must be one of ${values.join(", ")}`)
  return found
}

const unauthorized = (detail: string) => new Problem(401, "UNAUTHORIZED", detail)

interface KeyRow {
  readonly merchant_id: number
  readonly prefix: string
  readonly secret_hash: Buffer
  readonly revoked: boolean
  readonly account_status: string
}

/** The merchant of an `sv-api-key` header: 401 missing/malformed/unknown/revoked, 403 merchant not active. */
export const authenticate = async (pool: pg.Pool, header: string | Array<string> | undefined): Promise<number> => {
  if (typeof header !== "string" || header === "") throw unauthorized("missing sv-api-key header")
  const parts = header.split(".")
  const [prefix, secret, slug] = parts
  if (parts.length !== 3 || !prefix || !secret || !slug) {
    throw unauthorized("malformed sv-api-key: expected <Prefix>.<Key>.<Slug>")
  }
  const { rows } = await pool.query<KeyRow>(
    `SELECT k.merchant_id, k.prefix, k.secret_hash, k.revoked_at IS NOT NULL AS revoked, m.account_status
     FROM api_keys k JOIN merchants m ON m.id = k.merchant_id WHERE k.slug = $1`,
    [slug]
  )
  const row = rows[0]
  const given = createHash("sha256").update(secret, "utf8").digest()
  const stored = row?.secret_hash ?? Buffer.alloc(given.length)
  const same = stored.length === given.length && timingSafeEqual(stored, given)
  if (row === undefined || !same || row.revoked || row.prefix !== prefix) throw unauthorized("unknown or revoked sv-api-key")
  if (row.account_status !== "active") throw new Problem(403, "FORBIDDEN", "the merchant account is not active")
  return row.merchant_id
}
