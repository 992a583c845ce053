/**
 * Fuzzing against our own OpenAPI document, the way schemathesis would
 * (schemathesis itself cannot be installed here: PyPI is unreachable).
 *
 * A real gateway (the bundle, as `npm start` runs it) on its own database,
 * a real loopback operator (Details URL and wallet, answering 200), and real
 * credentials made through the API: an admin bearer, a merchant, its
 * `sv_live` and `sv_test` keys, demo and real game sessions. Then, for
 * FUZZ_SECONDS, fast-check generates requests to every operation of
 * `/openapi.json` from its parameter and body schemas (`Fuzz.ts`): valid
 * values, invalid ones (wrong types, out of range, too long, huge numbers,
 * unicode, missing or extra fields, malformed JSON, wrong content types,
 * bodies over the limit), wrong or absent credentials, undocumented methods
 * and routes. Ids, keys, tokens and sessions the run creates are fed back into
 * later requests (the stateful links: merchant → key → launch URL → token →
 * session → rounds). Every answer must be no 5xx, a documented status (or
 * one the API documents for all: 400 401 403 404 405 413 415 429), the
 * documented content type, a body valid for the documented schema, the
 * documented headers; invalid requests and bad credentials must not succeed.
 *
 * The same traffic is also validated by a tool we did not write, Stoplight
 * Prism (`Prism.ts`): requests valid in every part go through `prism proxy
 * <document> <gateway> --errors`, requests invalid on purpose through a Prism
 * without `--errors` (which forwards them; only violations of the answer
 * count). Any violation Prism reports is a finding. Requests Prism cannot
 * forward unchanged (see `send`) go straight to the gateway.
 *
 * The default run takes 45 s of fuzzing with a fixed seed (printed). A longer
 * one, or another seed:
 *
 *   FUZZ_SECONDS=600 FUZZ_SEED=42 DATABASE_URL=postgres://… npx vitest run apps/server/test/fuzz.e2e.test.ts
 */
import { json, startOperator } from "@gateway/adapters-operator/testing"
import { adminToken, call } from "@gateway/adapters-http/testing"
import fc from "fast-check"
import { SignJWT } from "jose"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"
import { type Mailbox, startMailbox } from "@gateway/adapters-operator/testing/Mailbox"
import { findingsOf, type PrismProxy, startPrism } from "./Prism.ts"
import {
  type AuthChoice,
  checkAnswer,
  type Failure,
  type Hints,
  jsonText,
  makeValidators,
  Missing,
  type OpenApiDocument,
  type Operation,
  operationsOf,
  type Parameter,
  type Plan,
  planOf,
  type PlanOptions,
  RawParam,
  Ref,
  type Sent,
  urlOf,
  type Validators
} from "./Fuzz.ts"

const seconds = Number(process.env["FUZZ_SECONDS"] ?? "45")
const seed = Number(process.env["FUZZ_SEED"] ?? "20261123")
/** FUZZ_TRACE=<operationId> prints the first requests to that operation and their answers. */
const trace = process.env["FUZZ_TRACE"]
const API = "/api/v1.1/operator-api"

let gw: Gateway | undefined
let operator: Awaited<ReturnType<typeof startOperator>> | undefined
/** The SMTP server of the gateway's back-office mail. */
let mailbox: Mailbox | undefined
/** The Prisms in front of the gateway (stopped after the run). */
const prisms: Array<PrismProxy> = []

/**
 * The run's own database on the server at DATABASE_URL (the test run's global setup provides one), made
 * and dropped here with short-lived connections. (`gateway()` of @gateway/server/testing does the same
 * through a pooled client that hangs when its connection has been idle for about two minutes, so a longer
 * run could not be torn down.)
 */
const serverUrl = process.env["DATABASE_URL"] ?? ""
const database = `gw_fuzz_${randomBytes(8).toString("hex")}`
/** The run's database (set once it exists). */
let databaseUrl = ""
const onServer = async (sql: string, connectionString = serverUrl) => {
  const client = new pg.Client({ connectionString })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

beforeAll(async () => {
  // The operator answers every Details call with an active ETB player (or shop) and every wallet call with 200:
  // nothing fails on its side, so no 502/504 is expected anywhere.
  operator = await startOperator((r, res) => {
    let body: any = {}
    try {
      body = JSON.parse(r.body)
    } catch {
      body = {}
    }
    if (typeof body?.type === "string") return json(res, 200, { balance: "1000.00" })
    if (typeof body?.shopId === "string") { // a retail launch's shopDetailsUrl (CONTRACT §11)
      return json(res, 200, { shopId: body.shopId, name: "Fuzz Shop", currency: "ETB", status: "active" })
    }
    return json(res, 200, { playerId: String(body?.playerId ?? "p-1"), currency: "ETB", balance: "1000.00" })
  })
  if (serverUrl === "") throw new Error("DATABASE_URL is not set (vitest's global setup sets it)")
  await onServer(`CREATE DATABASE ${database}`)
  const url = new URL(serverUrl)
  url.pathname = `/${database}`
  databaseUrl = url.href
  mailbox = await startMailbox()
  gw = await spawnGateway({
    DATABASE_URL: url.href,
    // The back office's mail (invitations, codes) goes to a loopback SMTP server, not to files in DATA_DIR.
    SMTP_URL: mailbox.url,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    ALLOW_PRIVATE_OPERATOR_URLS: "true",
    // The limiter stays on, but far above the fuzzer's pace; failed authentications are charged per
    // client address, so every request names its own (TRUST_PROXY) and the good ones are not refused.
    RATE_LIMIT_RPS: "1000000",
    RATE_LIMIT_BURST: "1000000",
    TRUST_PROXY: "true",
    LAUNCH_TOKEN_TTL_SECONDS: "3600",
    // Test pings of merchants without a webhook URL fail (no call is made) and are `failed` after two quick
    // retries, so the failed-deliveries list has entries and redelivery has something to redeliver.
    WEBHOOK_RETRY_SCHEDULE: "1,1",
    LOG_LEVEL: "Warn"
  })
})

afterAll(async () => {
  await Promise.all(prisms.map((p) => p.stop()))
  await gw?.stop("SIGKILL")
  await operator?.close()
  await mailbox?.close()
  await onServer(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
})

/**
 * Findings whose fix lies outside what this test's change could touch. They are not counted as failures
 * but printed by every run as KNOWN, with where the fix belongs; remove an entry once it is fixed (the run
 * then fails if the finding is still there). Each matches narrowly.
 */
const knownIssues: ReadonlyArray<{ readonly name: string; readonly fix: string; readonly matches: (f: Failure) => boolean }> = []

const countries = ["ET", "KE", "NG", "US", "GB", "DE", "JP", "BH", "TN", "ZA", "IN", "BR"]
const selections = ["odd", "even", "under", "over", "red", "green", "7", "1,2,3"]

/** The run's state: credentials, and every id, key and token it has created (the pools Refs draw from). */
class World {
  readonly failures: Array<Failure> = []
  readonly counts = new Map<string, Map<number | string, number>>()
  requests = 0
  /** Requests sent through Prism: valid ones (with `--errors`), invalid ones (without; their answers validated). */
  readonly viaPrism = { valid: 0, invalid: 0 }
  traced = 0
  /** The last requests answered, to show what came before a request that got no answer. */
  private readonly recent: Array<string> = []
  private forwarded = 0
  readonly merchants: Array<number> = []
  readonly sacrificial: Array<number> = []
  readonly keys: Array<{ merchantId: number; apiKey: string; slug: string }> = []
  readonly revokedKeys: Array<string> = []
  readonly createdGames: Array<string> = []
  readonly deliveries: Array<{ merchantId: number; id: string }> = []
  readonly launchTokens: Array<string> = []
  readonly usedTokens: Array<string> = []
  readonly sessions: Array<string> = []
  /** The primary merchant's owner, signed in to the back office (its password changed, so every call is open). */
  backoffice: { readonly email: string; readonly password: string; cookie: string; csrf: string } | undefined
  readonly touchedBuiltins = new Set<string>()
  builtins: Array<{ id: string; name: string; releaseDate: string; baseLaunchUrl: string; category: number; imageUrl: string }> = []

  readonly url: string
  /** Prism in front of the gateway (see `send`). */
  readonly prism: { readonly strict: string; readonly lenient: string }
  readonly ops: ReadonlyArray<Operation>
  readonly validators: Validators
  readonly admin: { full: string; readOnly: string; writeOnly: string; expired: string; wrongSecret: string }
  readonly primary: { id: number; liveKey: string; testKey: string; slug: string }

  constructor(
    url: string,
    prism: World["prism"],
    ops: ReadonlyArray<Operation>,
    validators: Validators,
    admin: World["admin"],
    primary: World["primary"]
  ) {
    this.url = url
    this.prism = prism
    this.ops = ops
    this.validators = validators
    this.admin = admin
    this.primary = primary
  }

  op(id: string): Operation {
    const found = this.ops.find((o) => o.id === id)
    if (found === undefined) throw new Error(`no operation ${id} in the document`)
    return found
  }

  // --- pools ---------------------------------------------------------------

  private from<T>(list: ReadonlyArray<T>, n: number): T | undefined {
    return list.length === 0 ? undefined : list[n % list.length]
  }

  /** A merchant that destructive operations (status changes, key revocations) may use up: never the primary one. */
  private async sacrificialMerchant(n: number): Promise<number> {
    if (this.sacrificial.length < 3 || n % 17 === 0) {
      // Made through the API like any request (checked, and harvested into the pools with a key of its own).
      const before = this.sacrificial.length
      await this.send(this.op("merchants.create"), this.plain({}, {
        countryCodes: ["ET"], companyName: "Sacrificial", email: `sacrificial-${this.requests}-${n}@example.com`, providerId: 1
      }))
      const id = this.sacrificial[before]
      if (id !== undefined) await this.send(this.op("merchants.issueApiKey"), this.plain({ id: String(id) }))
    }
    return this.from(this.sacrificial, n) ?? 999_999
  }

  /** A request with these values, the right credential and nothing odd about it. */
  plain(params: Record<string, unknown>, body: unknown = undefined): Omit<Plan, "op"> {
    return {
      params,
      body,
      bodyIntent: body === undefined ? "none" : "valid",
      envelope: { kind: "json" },
      auth: "good",
      extraQuery: [],
      headers: {},
      pick: 0
    }
  }

  /** A launch token: mostly a fresh one (made through the API when none is left), sometimes one already redeemed. */
  private async launchToken(n: number): Promise<string> {
    if (n % 5 === 0 && this.usedTokens.length > 0) return this.from(this.usedTokens, n) ?? ""
    const fresh = this.launchTokens.shift()
    if (fresh !== undefined) {
      this.usedTokens.push(fresh)
      if (this.usedTokens.length > 50) this.usedTokens.shift()
      return fresh
    }
    const mode = n % 2 === 0 ? "demo" : "real"
    await this.send(this.op("games.generateLaunchUrl"), this.plain({ gameId: "odd-even", playerId: `p-${n % 7}`, sessionId: `s-${n}`, mode }))
    const made = this.launchTokens.shift() ?? "no-token"
    this.usedTokens.push(made)
    return made
  }

  /** Resolves a Ref drawn by the generator into a value of the run. */
  async resolve(ref: Ref, context: { merchantId?: number }): Promise<unknown> {
    const n = ref.pick
    switch (ref.pool) {
      case "merchant": {
        const id = n % 2 === 0 ? this.primary.id : this.from(this.merchants, n) ?? this.primary.id
        context.merchantId = id
        return String(id)
      }
      case "sacrificialMerchant": {
        const id = await this.sacrificialMerchant(n)
        context.merchantId = id
        return String(id)
      }
      case "slug": {
        const mine = this.keys.filter((k) => k.merchantId === context.merchantId)
        return (n % 4 === 0 ? this.from(this.keys, n)?.slug : this.from(mine, n)?.slug) ?? `no-such-slug-${n % 10}`
      }
      case "delivery": {
        const mine = this.deliveries.filter((d) => d.merchantId === context.merchantId)
        return (n % 4 === 0 ? this.from(this.deliveries, n)?.id : this.from(mine, n)?.id) ?? "00000000-0000-4000-8000-000000000000"
      }
      case "builtinGame":
        return this.from(this.builtins, n)?.id ?? "odd-even"
      case "gameImage":
        return `${this.from(this.builtins, n)?.id ?? "odd-even"}.svg`
      case "launchGame":
        // Mostly the one playable game, so that sessions can play rounds.
        return n % 5 < 3 ? "odd-even" : n % 7 === 0 ? this.from(this.createdGames, n) ?? "odd-even" : this.from(this.builtins, n)?.id ?? "odd-even"
      case "upsertGame":
        return n % 3 === 0 ? this.from(this.createdGames, n) ?? `fuzz-${n % 50}` : n % 5 === 0 ? this.from(this.builtins, n)?.id ?? "odd-even" : `fuzz-${n % 50}`
      case "retireGame":
        return this.from(this.createdGames, n) ?? `fuzz-missing-${n % 10}`
      case "launchToken":
        return this.launchToken(n)
      default:
        throw new Error(`unknown pool ${ref.pool}`)
    }
  }

  private async resolveDeep(value: unknown, context: { merchantId?: number }): Promise<unknown> {
    if (value instanceof Ref) return this.resolve(value, context)
    if (Array.isArray(value)) return Promise.all(value.map((v) => this.resolveDeep(v, context)))
    if (typeof value !== "object" || value === null) return value
    const prototype = Object.getPrototypeOf(value)
    if (prototype === Object.prototype || prototype === null) {
      const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await this.resolveDeep(v, context)] as const))
      const out: Record<string, unknown> = {}
      for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true })
      return out
    }
    return value
  }

  nextAddress(): string {
    return `fuzz-${++this.forwarded}`
  }

  // --- credentials ---------------------------------------------------------

  private credential(op: Operation, choice: AuthChoice, pick: number): Record<string, string> {
    if (op.security.length === 0) return choice === "garbage" ? { authorization: "Bearer nothing-needed" } : {}
    const alternatives = op.security.flat()
    const scheme = alternatives[pick % alternatives.length] ?? ""
    const bearerLike = scheme === "bearer" || scheme === "accessToken"
    const put = (token: string): Record<string, string> =>
      scheme === "accessToken" ? { "access-token": token } : { authorization: `Bearer ${token}` }
    const apiKey = (key: string) => ({ "sv-api-key": key })
    const key = this.primary.liveKey
    if (scheme === "session") return this.backofficeCredential(choice, pick)
    switch (choice) {
      case "good":
        if (bearerLike) return put(this.admin.full)
        if (scheme === "svApiKey") {
          const live = this.keys.filter((k) => k.merchantId !== this.primary.id || k.apiKey !== key)
          return apiKey(pick % 8 === 0 ? this.primary.testKey : pick % 11 === 0 ? this.from(live, pick)?.apiKey ?? key : key)
        }
        return { authorization: `Bearer ${this.from(this.sessions, pick) ?? "no-session"}` }
      case "none":
        return {}
      case "garbage":
        return bearerLike ? put("garbage") : scheme === "svApiKey" ? apiKey("sv_live.garbage.garbage") : { authorization: "Bearer garbage" }
      case "expired":
        return bearerLike ? put(this.admin.expired) : scheme === "svApiKey" ? apiKey(this.from(this.revokedKeys, pick) ?? "sv_live.x.revoked") : { authorization: "Bearer expired-session" }
      case "wrongSecret": {
        if (bearerLike) return put(this.admin.wrongSecret)
        const [prefix, , slug] = key.split(".")
        return scheme === "svApiKey" ? apiKey(`${prefix}.${"A".repeat(43)}.${slug}`) : { authorization: `Bearer ${"A".repeat(43)}` }
      }
      case "wrongScope":
        if (bearerLike) return put(op.method === "GET" ? this.admin.writeOnly : this.admin.readOnly)
        return scheme === "svApiKey" ? apiKey(this.from(this.revokedKeys, pick) ?? "sv_test.x.y") : { authorization: `Bearer ${this.admin.full}` }
      case "crossed":
        return bearerLike ? apiKey(key) : { authorization: `Bearer ${this.admin.full}` }
      case "malformedHeader": {
        const variants = bearerLike
          ? [{ authorization: "Bearer" }, { authorization: "Basic YTpi" }, { authorization: `bearer  ${this.admin.full} x` }, { "access-token": "" }]
          : scheme === "svApiKey"
          ? [apiKey("a.b"), apiKey(".."), apiKey(`sv_live..${this.primary.slug}`), apiKey(`${key}.extra`), apiKey(" ")]
          : [{ authorization: "Bearer" }, { authorization: "Token x" }, { authorization: "Bearer a b" }]
        return variants[pick % variants.length] ?? {}
      }
    }
  }

  /** The back office's session cookie (and its CSRF token, which every call but GET needs). */
  private backofficeCredential(choice: AuthChoice, pick: number): Record<string, string> {
    const cookie = (value: string) => ({ cookie: `gateway_backoffice=${value}` })
    switch (choice) {
      case "good":
        return this.backoffice === undefined ? {} : { cookie: this.backoffice.cookie, "x-csrf-token": this.backoffice.csrf }
      case "none":
        return {}
      case "garbage":
      case "wrongScope":
        return cookie("garbage")
      case "expired":
      case "wrongSecret":
        return cookie("A".repeat(43))
      case "crossed":
        return { authorization: `Bearer ${this.admin.full}` }
      case "malformedHeader": {
        const variants = [{ cookie: "gateway_backoffice=" }, { cookie: "gateway_backoffice" }, { cookie: "other=1" }]
        return variants[pick % variants.length] ?? {}
      }
    }
  }

  /** Signs the back office's owner in again when the fuzzing ended its session (a logout, say). */
  async healBackoffice() {
    const owner = this.backoffice
    if (owner === undefined) return
    const me = await call(`${this.url}/api/v1.1/backoffice/me`, { headers: { cookie: owner.cookie, "x-forwarded-for": this.nextAddress() } })
    if (me.status === 200) return
    const signIn = () =>
      call(`${this.url}/api/v1.1/backoffice/login`, {
        method: "POST", headers: { "x-forwarded-for": this.nextAddress() }, json: { email: owner.email, password: owner.password }
      })
    let login = await signIn()
    // Fuzzed secret reveals send wrong passwords, each a failed sign-in of the owner's account (CONTRACT §9): the
    // account may be slowed down (429). Its count is cleared, as a day without failures would.
    if (login.status === 429) {
      await onServer("DELETE FROM backoffice_login_failures", databaseUrl)
      login = await signIn()
    }
    if (login.status !== 200) throw new Error(`could not sign the back office's owner in again: ${login.status} ${login.text}`)
    owner.cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
    owner.csrf = login.body.csrfToken
  }

  // --- one request ---------------------------------------------------------

  /** Whether the request is outside the document (a required value missing, a value outside its schema, a bad body). */
  private invalidPerDocument(op: Operation, params: Record<string, unknown>, body: unknown, plan: Plan): string | undefined {
    for (const p of op.parameters) {
      const value = params[p.name]
      if (!(p.name in params) || value === Missing) {
        if (p.required) return `required ${p.in} parameter ${p.name} missing`
        continue
      }
      if (value instanceof RawParam) continue
      const wire = (v: unknown) => typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v)
      const sent = Array.isArray(value) && typeof p.schema["type"] === "string" && p.schema["type"] === "array" ? value.map(wire) : wire(value)
      if (p.in === "path" && sent === "") continue
      if (this.validators.errors(p.schema, sent).length > 0) {
        let parsed: unknown = Missing
        try {
          parsed = typeof sent === "string" ? JSON.parse(sent) : Missing
        } catch {
          parsed = Missing
        }
        if (parsed === Missing || this.validators.errors(p.schema, parsed).length > 0) return `${p.in} parameter ${p.name}=${JSON.stringify(sent).slice(0, 80)}`
      }
    }
    if (op.body === undefined) return undefined
    const envelope = plan.envelope
    if (envelope.kind === "oversized") return `a body of ${envelope.bytes} bytes (over MAX_BODY_BYTES)`
    if (envelope.kind === "malformed") return "a body that is not JSON"
    if (envelope.kind === "emptyBody" || envelope.kind === "noBody") return op.body.required ? "no body" : undefined
    // A body without a content-type may be taken for what it is (RFC 9110 §8.3): only a wrong one is invalid.
    if (envelope.kind === "contentType" && envelope.contentType !== undefined) {
      const base = envelope.contentType.split(";")[0]?.trim().toLowerCase() ?? ""
      if (!op.body.contentTypes.some((t) => t.toLowerCase() === base)) return `content-type ${envelope.contentType}`
    }
    let value: unknown
    try {
      value = JSON.parse(jsonText(body))
    } catch {
      return "a body that is not JSON"
    }
    const errors = this.validators.errors(op.body.schema, value)
    return errors.length > 0 ? `body ${errors.join("; ")}` : undefined
  }

  /** Sends one planned request to `op`, checks the answer, and harvests what it created. */
  async send(
    op: Operation | undefined,
    plan: Omit<Plan, "op">,
    raw?: { method: string; path: string },
    link?: { readonly headers: Record<string, string> }
  ): Promise<number | undefined> {
    this.requests++
    const context: { merchantId?: number } = {}
    const params: Record<string, unknown> = {}
    for (const p of op?.parameters ?? []) {
      if (p.name in plan.params) params[p.name] = await this.resolveDeep(plan.params[p.name], context)
    }
    const body = await this.resolveDeep(plan.body, context)
    // A merchant id given as it is (not drawn from a pool) still names the merchant what the answer creates belongs to.
    if (context.merchantId === undefined && op?.path.includes("/merchants/{id}") === true && typeof params["id"] === "string" && /^[1-9]\d{0,9}$/.test(params["id"])) {
      context.merchantId = Number(params["id"])
    }
    const method = raw?.method ?? op?.method ?? "GET"
    const path = raw?.path ?? (op === undefined ? "/" : urlOf(op, params, plan.extraQuery))
    const headers: Record<string, string> = {
      "x-forwarded-for": this.nextAddress(),
      ...plan.headers,
      ...(op === undefined ? {} : this.credential(op, plan.auth, plan.pick)),
      ...link?.headers
    }
    let text: string | Uint8Array | undefined
    const envelope = plan.envelope
    const hasBody = op?.body !== undefined || body !== undefined
    if (hasBody && method !== "GET") {
      switch (envelope.kind) {
        case "json":
          text = jsonText(body)
          headers["content-type"] = "application/json"
          break
        case "contentType":
          text = new TextEncoder().encode(jsonText(body))
          if (envelope.contentType !== undefined) headers["content-type"] = envelope.contentType
          break
        case "malformed":
          text = envelope.text
          headers["content-type"] = "application/json"
          break
        case "oversized":
          text = jsonText({ padding: "x".repeat(envelope.bytes) })
          headers["content-type"] = "application/json"
          break
        case "emptyBody":
          text = ""
          headers["content-type"] = "application/json"
          break
        case "noBody":
          break
      }
    }
    const sentBody = typeof text === "string" ? text : text === undefined ? undefined : new TextDecoder().decode(text)
    const sent: Sent = { method, url: path, headers, body: sentBody }
    const badCredential = plan.auth !== "good" && (op?.security.length ?? 0) > 0
    const invalid = op === undefined || raw !== undefined ? undefined : this.invalidPerDocument(op, params, body, { ...plan, op })
    // Prism validates requests to documented operations and the gateway's answers against the document. A request
    // valid in every part goes through `prism proxy --errors`: any violation it reports, of the request or the
    // answer, is a finding. One invalid on purpose (a parameter, the body or the credential) goes through a Prism
    // without `--errors`, which forwards it (with --errors Prism would answer it itself): only violations of the
    // answer count. What Prism cannot pass on unchanged goes straight to the gateway: undocumented routes and
    // methods, malformed percent-encoding, bodies that are not JSON, other content types, bodies over the limit,
    // a body on a GET, and a body that its parse and re-encoding would change: one that is not an object or an
    // array (Prism drops `null`, `0`, `false` and `""`, and sends a string unquoted), or JSON that
    // serialises differently (1e999999, digits beyond a double). An empty path parameter is sent as `%20`:
    // that request is no longer valid.
    const forwardable = op !== undefined && raw === undefined && envelope.kind === "json" &&
      !Object.values(params).some((v) => v instanceof RawParam) && !(method === "GET" && text !== undefined) &&
      (typeof text !== "string" || survivesReencoding(text))
    const valid = invalid === undefined && !badCredential && plan.extraQuery.length === 0 &&
      (op?.body !== undefined || body === undefined) && !(op?.parameters ?? []).some((p) => p.in === "path" && params[p.name] === "")
    const viaPrism = !forwardable ? undefined : valid ? "valid" as const : "invalid" as const
    if (viaPrism !== undefined) this.viaPrism[viaPrism]++
    let got: { status: number; headers: Headers; text: string }
    try {
      const base = viaPrism === "valid" ? this.prism.strict : viaPrism === "invalid" ? this.prism.lenient : this.url
      const res = await fetch(`${base}${path}`, {
        method,
        headers,
        ...(text === undefined ? {} : { body: text }),
        signal: AbortSignal.timeout(15_000)
      })
      got = { status: res.status, headers: res.headers, text: await res.text() }
    } catch (error) {
      // A body over the limit is refused and the connection closed before the client has finished sending it.
      if (envelope.kind === "oversized") {
        this.count(op, "closed")
        return undefined
      }
      this.failures.push({
        check: "answer",
        op: op?.id ?? "undocumented route",
        message: `no answer${viaPrism === undefined ? "" : " (through Prism)"}: ${String(error)}${error instanceof Error && error.cause !== undefined ? ` (${String(error.cause)})` : ""}` +
          `; before it: ${this.recent.join(" | ")}`,
        request: sent,
        response: undefined
      })
      return undefined
    }
    this.count(op, got.status)
    this.recent.push(`${method} ${path.slice(0, 80)} ${headers["content-type"] ?? ""} ${sentBody?.length ?? 0}B → ${got.status}`)
    if (this.recent.length > 4) this.recent.shift()
    if (trace !== undefined && op?.id === trace && this.traced++ < 40) {
      console.log(`trace ${method} ${path.slice(0, 200)} ${sentBody?.slice(0, 300) ?? ""}\n  → ${got.status} ${got.text.slice(0, 200)}`)
    }
    if (viaPrism !== undefined) {
      const prism = findingsOf(got.headers, got.text, viaPrism === "invalid")
      if (prism.violations.length > 0) {
        this.failures.push({
          check: "prism",
          op: op?.id ?? "undocumented route",
          message: prism.violations.join("; "),
          request: sent,
          response: { status: got.status, contentType: got.headers.get("content-type"), body: got.text.slice(0, 400) }
        })
      }
      // Prism's own answer (the request refused, or the gateway's answer replaced) is not the gateway's.
      if (prism.ownAnswer) return undefined
    }
    for (const failure of checkAnswer(op, sent, got, { validators: this.validators, invalidPerDocument: invalid, badCredential })) {
      this.failures.push({
        ...failure,
        request: sent,
        response: { status: got.status, contentType: got.headers.get("content-type"), body: got.text.slice(0, 400) }
      })
    }
    if (got.status >= 200 && got.status < 300) {
      const revoked = op?.id === "merchants.revokeApiKey" ? this.keys.find((k) => k.slug === params["slug"])?.apiKey : undefined
      this.harvest(op, method, params, context, got.text)
      if (link === undefined && op !== undefined) await this.followLinks(op, params, body, got.text, revoked)
    }
    return got.status
  }

  /**
   * The stateful checks, as schemathesis' links and its `ensure_resource_availability` / `use_after_free`
   * checks do: what an answer created is there at once, what it removed is gone at once.
   */
  private async followLinks(op: Operation, params: Record<string, unknown>, body: unknown, text: string, revokedKey: string | undefined) {
    let answer: any
    try {
      answer = JSON.parse(text)
    } catch {
      answer = undefined
    }
    const plain = (p: Record<string, unknown>, b: unknown = undefined) => this.plain(p, b)
    const expectStatus = async (check: string, what: string, target: Operation, p: Omit<Plan, "op">, headers: Record<string, string>, ok: (status: number) => boolean) => {
      const status = await this.send(target, p, undefined, { headers })
      if (status !== undefined && !ok(status)) {
        this.failures.push({
          check,
          op: `${op.id} → ${target.id}`,
          message: `${what}: answered ${status}`,
          request: { method: target.method, url: target.path, headers, body: undefined },
          response: undefined
        })
      }
    }
    const admin = { authorization: `Bearer ${this.admin.full}` }
    const launch = (gameId: string) => plain({ gameId, playerId: "p-1", sessionId: "s-link", mode: "demo" })
    switch (op.id) {
      case "merchants.create":
        if (typeof answer?.id === "number") {
          await expectStatus("ensure_resource_availability", "a merchant just created is not readable", this.op("merchants.get"), plain({ id: String(answer.id) }), admin, (s) => s === 200)
        }
        return
      case "merchants.issueApiKey":
        if (typeof answer?.apiKey === "string") {
          await expectStatus("ensure_resource_availability", "a key just issued does not authenticate", this.op("settings.get"), plain({}), { "sv-api-key": answer.apiKey }, (s) => s === 200 || s === 403)
        }
        return
      case "merchants.revokeApiKey":
        if (revokedKey !== undefined) {
          await expectStatus("use_after_free", "a revoked key still authenticates", this.op("settings.get"), plain({}), { "sv-api-key": revokedKey }, (s) => s === 401)
        }
        return
      case "catalogue.upsert":
        if (typeof answer?.id === "string") {
          await expectStatus("ensure_resource_availability", "a game just upserted is not launchable", this.op("games.generateLaunchUrl"), launch(answer.id), { "sv-api-key": this.primary.liveKey }, (s) => s === 200)
        }
        return
      case "catalogue.retire":
        if (typeof params["id"] === "string") {
          await expectStatus("use_after_free", "a retired game is still launchable", this.op("games.generateLaunchUrl"), launch(params["id"]), { "sv-api-key": this.primary.liveKey }, (s) => s === 404)
        }
        return
      case "gameSessions.open":
        if (typeof body === "object" && body !== null && "token" in body) {
          await expectStatus("use_after_free", "a launch token redeemed twice", this.op("gameSessions.open"), plain({}, { token: (body as { token: unknown }).token }), {}, (s) => s === 409)
        }
        return
    }
  }

  private count(op: Operation | undefined, status: number | string) {
    const key = op === undefined ? "(undocumented routes and methods)" : `${op.method} ${op.path}`
    const byStatus = this.counts.get(key) ?? new Map()
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1)
    this.counts.set(key, byStatus)
  }

  /** The links: what an answer created becomes a value later requests use. */
  private harvest(op: Operation | undefined, method: string, params: Record<string, unknown>, context: { merchantId?: number }, text: string) {
    let body: any
    try {
      body = JSON.parse(text)
    } catch {
      body = undefined
    }
    const id = typeof params["id"] === "string" ? params["id"] : undefined
    if (op?.id === "merchants.revokeApiKey" && typeof params["slug"] === "string") {
      const index = this.keys.findIndex((k) => k.slug === params["slug"])
      const [revoked] = index >= 0 ? this.keys.splice(index, 1) : []
      if (revoked !== undefined) this.revokedKeys.push(revoked.apiKey)
    }
    if (op?.id === "catalogue.retire" && id !== undefined) {
      const index = this.createdGames.indexOf(id)
      if (index >= 0) this.createdGames.splice(index, 1)
    }
    if (typeof body !== "object" || body === null) return
    if (typeof body.clientId === "string" && typeof body.password === "string" && typeof body.id === "number") {
      this.merchants.push(body.id)
      this.sacrificial.push(body.id)
    }
    if (typeof body.apiKey === "string" && typeof body.slug === "string" && context.merchantId !== undefined) {
      this.keys.push({ merchantId: context.merchantId, apiKey: body.apiKey, slug: body.slug })
    }
    if (body.success === true && typeof body.url === "string") {
      const token = new URL(body.url).searchParams.get("token")
      if (token !== null && this.launchTokens.length < 40) this.launchTokens.push(token)
    }
    if (typeof body.sessionToken === "string") {
      this.sessions.push(body.sessionToken)
      if (this.sessions.length > 40) this.sessions.splice(2, 1) // the fixtures' two stay
    }
    if (typeof body.deliveryId === "string" && context.merchantId !== undefined) {
      this.deliveries.push({ merchantId: context.merchantId, id: body.deliveryId })
      if (this.deliveries.length > 40) this.deliveries.shift()
    }
    if (Array.isArray(body.data)) {
      for (const failed of body.data.slice(0, 5)) {
        if (typeof failed?.failedAt === "string" && typeof failed.id === "string" && typeof failed.merchantId === "number") {
          this.deliveries.push({ merchantId: failed.merchantId, id: failed.id })
          if (this.deliveries.length > 40) this.deliveries.shift()
        }
      }
    }
    if (method === "PUT" && typeof body.baseLaunchUrl === "string" && typeof body.id === "string") {
      if (this.builtins.some((g) => g.id === body.id)) this.touchedBuiltins.add(body.id)
      else if (!this.createdGames.includes(body.id)) this.createdGames.push(body.id)
    }
  }

  /** Puts back what the fuzzing may have changed on the fixtures (the primary merchant's settings, built-in games). */
  async heal(baseline: Record<string, unknown>) {
    const admin = { authorization: `Bearer ${this.admin.full}`, "x-forwarded-for": this.nextAddress() }
    const settings = await call(`${this.url}${API}/merchants/${this.primary.id}/settings`, { method: "PUT", headers: admin, json: baseline })
    if (settings.status !== 200) throw new Error(`could not restore the primary merchant's settings: ${settings.status} ${settings.text}`)
    for (const id of this.touchedBuiltins) {
      const game = this.builtins.find((g) => g.id === id)
      if (game === undefined) continue
      const { id: _id, ...upsert } = game
      const absolute = { ...upsert, imageUrl: new URL(upsert.imageUrl, this.url).href, baseLaunchUrl: new URL(upsert.baseLaunchUrl, this.url).href }
      const restored = await call(`${this.url}${API}/games/${id}`, { method: "PUT", headers: admin, json: absolute })
      if (restored.status !== 200) throw new Error(`could not restore game ${id}: ${restored.status} ${restored.text}`)
    }
    this.touchedBuiltins.clear()
    await this.healBackoffice()
  }
}

/** Realistic values by field name: what a schemathesis run gets from `examples`, which our document does not carry. */
const hints: Hints = (name, schema) => {
  const type = schema["type"]
  const ref = (pool: string) => fc.nat().map((n) => new Ref(pool, n))
  if (type === "string") {
    switch (name) {
      case "countryCodes":
        return fc.constantFrom(...countries)
      case "email":
        return fc.oneof(
          fc.uuid().map((u) => `fuzz-${u.slice(0, 8)}@example.com`),
          fc.constantFrom("dup@example.com", "DUP@Example.com")
        )
      case "token":
        return ref("launchToken")
      case "stake":
        return fc.oneof(
          fc.integer({ min: 1, max: 60_000 }).map((c) => (c / 100).toFixed(2)),
          fc.constantFrom("1", "10", "0.5", "1.00", "500.00", "0.01", "1000000.00", "12.345", "0", "-1.00", "1e2", "99999999999999999999.99")
        )
      case "selection":
        return fc.oneof({ weight: 4, arbitrary: fc.constantFrom("odd", "even") }, { weight: 1, arbitrary: fc.constantFrom(...selections) })
      case "releaseDate":
        return fc.date({ min: new Date("2000-01-01"), max: new Date("2030-12-31"), noInvalidDate: true }).map((d) =>
          d.toISOString().slice(0, 10)
        )
      case "gameId":
        return ref("launchGame")
      case "currency":
        return fc.constantFrom("ETB", "ETB", "USD", "KES")
      case "playerId":
      case "sessionId":
        return fc.constantFrom("p-1", "p-2", "s-1", "player 1", "ñandú")
      case "page":
        return fc.integer({ min: 1, max: 4 }).map(String)
      case "limit":
        return fc.integer({ min: 1, max: 100 }).map(String)
      case "search":
        return fc.constantFrom("odd", "", "E", "-", "%", "_")
      case "searchFields":
        return fc.constantFrom("name", "id", "name,id")
    }
  }
  if ((name === "minimumStake" || name === "maximumStake") && schema["anyOf"] === undefined) {
    return fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 100_000 }).map((c) => c / 100))
  }
  return undefined
}

/** Which pool a path or query parameter takes its real values from. */
const refFor = (op: Operation, p: Parameter): fc.Arbitrary<Ref> | undefined => {
  const ref = (pool: string) => fc.nat().map((n) => new Ref(pool, n))
  if (p.in === "path" && p.name === "id" && op.path.includes("/merchants/{id}")) {
    return ref(op.id === "merchants.changeStatus" || op.id === "merchants.revokeApiKey" ? "sacrificialMerchant" : "merchant")
  }
  if (p.in === "path" && p.name === "slug") return ref("slug")
  if (p.in === "path" && p.name === "deliveryId") return ref("delivery")
  if (p.in === "path" && p.name === "id" && op.path.includes("/games/{id}")) return ref(op.method === "DELETE" ? "retireGame" : "upsertGame")
  if (p.in === "path" && p.name === "gameId") return ref("builtinGame")
  if (p.in === "path" && p.name === "file") return ref("gameImage")
  if (p.in === "query" && p.name === "gameId") return ref("launchGame")
  if (p.in === "query" && p.name === "token") return ref("launchToken")
  return undefined
}

/** Requests outside the document: undocumented methods on documented paths, and unknown paths. */
const strayPlan = (ops: ReadonlyArray<Operation>): fc.Arbitrary<{ method: string; path: string; body: unknown }> => {
  const paths = [...new Set(ops.map((o) => o.path))]
  const fill = (path: string) => path.replace(/\{[^}]+\}/g, "1")
  return fc.oneof(
    fc.tuple(fc.constantFrom(...paths), fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"))
      .filter(([path, method]) => !ops.some((o) => o.path === path && o.method === method))
      .map(([path, method]) => ({ method, path: fill(path), body: undefined })),
    fc.tuple(
      fc.constantFrom("/api/v1.1/", "/api/v1.1/operator-api/", "/api/v1.1/game-api/", "/", "/api/v2/", "/play/"),
      fc.array(fc.oneof(fc.stringMatching(/^[a-z0-9-]{1,12}$/), fc.constantFrom("%zz", "%00", "x.y", "%2F", "%E0%A4%A", "%F0%9F%92%A5")), { minLength: 1, maxLength: 4 }),
      fc.constantFrom("GET", "POST", "PUT", "DELETE"),
      fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined })
    ).map(([prefix, segments, method, body]) => ({ method, path: `${prefix}${segments.join("/")}`, body })),
    fc.tuple(fc.constantFrom(...paths), fc.constantFrom("/x", "/", "//", "?=", "/%zz", "/%2F"))
      .map(([path, suffix]) => ({ method: "GET", path: `${fill(path)}${suffix}`, body: undefined }))
  )
}

/** Whether Prism forwards a JSON body as it is: an object or an array, the same once parsed and serialised again. */
const survivesReencoding = (text: string) => {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === "object" && value !== null && JSON.stringify(value) === text
  } catch {
    return false
  }
}

const matchOperation = (ops: ReadonlyArray<Operation>, method: string, path: string) =>
  ops.find((o) => {
    if (o.method !== method) return false
    const regex = new RegExp(`^${o.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/?#]+")}/*(\\?.*)?$`)
    return regex.test(path)
  })

const describeFailure = (f: Failure) =>
  [
    `[${f.check}] ${f.op}: ${f.message}`,
    `  request: ${f.request.method} ${f.request.url.slice(0, 300)}`,
    `  headers: ${JSON.stringify(Object.fromEntries(Object.entries(f.request.headers).map(([k, v]) => [k, v.length > 40 ? `${v.slice(0, 40)}…` : v])))}`,
    ...(f.request.body === undefined ? [] : [`  body: ${f.request.body.slice(0, 300)}`]),
    f.response === undefined ? "  response: none" : `  response: ${f.response.status} ${f.response.contentType ?? "(no content-type)"} ${f.response.body.slice(0, 300)}`
  ].join("\n")

describe("fuzzing the running server against its own OpenAPI document", () => {
  it(`answers every generated request as documented (fast-check, ${seconds} s, seed ${seed})`, async () => {
    console.log(`fuzz: seed ${seed}, ${seconds} s (reproduce with FUZZ_SEED=${seed} FUZZ_SECONDS=${seconds})`)
    if (gw === undefined || operator === undefined) throw new Error("the gateway or the operator did not start")
    const gateway = gw
    const operatorUrl = operator.url
    const doc = await (await fetch(`${gateway.url}/openapi.json`)).json() as OpenApiDocument
    expect(doc.openapi).toMatch(/^3\.1\./)
    const ops = operationsOf(doc)
    const validators = makeValidators(doc)
    // The same document, validated by a tool we did not write (Prism, offline: from a file); it starts while the
    // fixtures are made.
    const prismStarted = Date.now()
    const start = (errors: boolean) => startPrism(doc, gateway.url, { errors }).then((p) => (prisms.push(p), p))
    const starting = Promise.all([start(true), start(false)]).then(([strict, lenient]) => {
      console.log(`fuzz: Prism ready in ${((Date.now() - prismStarted) / 1000).toFixed(1)} s`)
      return { strict, lenient }
    })
    starting.catch(() => {}) // awaited below; a failure to start fails the test there

    // Credentials and fixtures, made through the API.
    const [full, readOnly, writeOnly, wrongSecret] = await Promise.all([
      adminToken(gateway.authSecret, "read:users write:users", "3h"),
      adminToken(gateway.authSecret, "read:users", "3h"),
      adminToken(gateway.authSecret, "write:users", "3h"),
      adminToken("another-secret-another-secret-another-secret", "read:users write:users", "3h")
    ])
    const expired = await new SignJWT({ scope: "read:users write:users" }).setProtectedHeader({ alg: "HS256" })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60).sign(new TextEncoder().encode(gateway.authSecret))
    const admin = { authorization: `Bearer ${full}` }
    const created = await call(`${gateway.url}${API}/create`, {
      method: "POST",
      headers: admin,
      json: { countryCodes: ["ET"], companyName: "Fuzz Primary", email: "primary@fuzz.example", providerId: 1 }
    })
    expect(created.status, created.text).toBe(201)
    const primaryId: number = created.body.id
    const baseline = {
      userDetailsUrl: `${operatorUrl}/details`,
      webhookUrl: `${operatorUrl}/wallet`,
      isSeperateWebhookUrl: false,
      minimumStake: 1,
      maximumStake: 500,
      hideBalance: false
    }
    const settings = await call(`${gateway.url}${API}/merchants/${primaryId}/settings`, { method: "PUT", headers: admin, json: baseline })
    expect(settings.status, settings.text).toBe(200)
    const live = await call(`${gateway.url}${API}/merchants/${primaryId}/api-keys`, { method: "POST", headers: admin })
    expect(live.status, live.text).toBe(201)
    const test = await call(`${gateway.url}${API}/merchants/${primaryId}/api-keys`, { method: "POST", headers: admin, json: { prefix: "sv_test" } })
    expect(test.status, test.text).toBe(201)
    const { strict, lenient } = await starting
    const world = new World(gateway.url, { strict: strict.url, lenient: lenient.url }, ops, validators, { full, readOnly, writeOnly, expired, wrongSecret }, {
      id: primaryId,
      liveKey: live.body.apiKey,
      testKey: test.body.apiKey,
      slug: live.body.slug
    })
    world.merchants.push(primaryId)
    const signedIn = await call(`${gateway.url}/api/v1.1/backoffice/login`, {
      method: "POST", json: { email: "primary@fuzz.example", password: created.body.password }
    })
    expect(signedIn.status, signedIn.text).toBe(200)
    const owner = {
      email: "primary@fuzz.example",
      password: "fuzzing the back office 2026",
      cookie: (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "",
      csrf: String(signedIn.body.csrfToken)
    }
    const changed = await call(`${gateway.url}/api/v1.1/backoffice/password`, {
      method: "POST",
      headers: { cookie: owner.cookie, "x-csrf-token": owner.csrf },
      json: { currentPassword: created.body.password, newPassword: owner.password }
    })
    expect(changed.status, changed.text).toBe(200)
    world.backoffice = owner
    const games = await call(`${gateway.url}${API}/games?limit=100`, { headers: { "sv-api-key": live.body.apiKey } })
    expect(games.status, games.text).toBe(200)
    world.builtins = games.body.data
    for (const mode of ["demo", "real"]) {
      const launch = await call(`${gateway.url}${API}/games/generate-launch-url?gameId=odd-even&playerId=p-1&sessionId=s-fixture&mode=${mode}`, {
        headers: { "sv-api-key": live.body.apiKey }
      })
      expect(launch.status, launch.text).toBe(200)
      const token = new URL(launch.body.url).searchParams.get("token")
      const session = await call(`${gateway.url}/api/v1.1/game-api/sessions`, { method: "POST", json: { token } })
      expect(session.status, session.text).toBe(201)
      world.sessions.push(session.body.sessionToken)
    }

    // The run.
    const options: PlanOptions = { doc, hints, urlBase: operatorUrl, refFor }
    const stray = strayPlan(ops).map((s) => ({ stray: s }))
    const plans = fc.oneof(...ops.map((op) => planOf(options, op).map((plan) => ({ plan }))), stray)
    const started = Date.now()
    const harnessFailure = (op: string, error: unknown) =>
      world.failures.push({
        check: "harness",
        op,
        message: String(error instanceof Error ? error.stack : error),
        request: { method: "", url: "", headers: {}, body: undefined },
        response: undefined
      })
    // Every operation once first, so that a slow machine's run still calls each (the random run below may miss
    // one of ~90 in 45 s when the machine is busy); a harness error is a finding, as in the run.
    for (const [i, op] of ops.entries()) {
      const [first] = fc.sample(planOf(options, op), { seed: seed + i, numRuns: 1 })
      if (first === undefined) continue
      const { op: planned, ...plan } = first
      await world.send(planned, plan).catch((error: unknown) => harnessFailure(planned.id, error))
    }
    let healedAt = 0
    await fc.assert(
      fc.asyncProperty(plans, async (next) => {
        try {
          if (world.requests - healedAt >= 100) {
            healedAt = world.requests
            await world.heal(baseline)
          }
          if ("plan" in next) {
            const { op, ...plan } = next.plan
            await world.send(op, plan)
          } else {
            const { method, path, body } = next.stray
            // HEAD is answered as GET without a body: it is held to the GET operation's statuses.
            const op = matchOperation(ops, method === "HEAD" ? "GET" : method, path)
            const plan = { params: {}, body, bodyIntent: "none" as const, envelope: { kind: "json" as const }, auth: "none" as const, extraQuery: [], headers: {}, pick: 0 }
            await world.send(op, plan, { method, path })
          }
        } catch (error) {
          harnessFailure("plan" in next ? next.plan.op.id : "stray", error)
        }
        return true
      }),
      { seed, numRuns: Number.MAX_SAFE_INTEGER, interruptAfterTimeLimit: seconds * 1000, markInterruptAsFailure: false }
    )
    const elapsed = (Date.now() - started) / 1000

    // The report.
    const lines = [...world.counts].sort(([a], [b]) => a.localeCompare(b)).map(([key, byStatus]) =>
      `  ${key}: ${[...byStatus].sort(([a], [b]) => String(a).localeCompare(String(b))).map(([s, n]) => `${s}×${n}`).join(" ")}`
    )
    console.log(
      `fuzz: ${world.requests} requests in ${elapsed.toFixed(0)} s (seed ${seed}), ${world.viaPrism.valid} valid and ${world.viaPrism.invalid} invalid ones through Prism, ` +
        `${world.failures.length} findings (known ones included)\n${lines.join("\n")}`
    )
    const groups = new Map<string, { count: number; first: Failure }>()
    const knownHits = new Map<string, number>()
    for (const f of world.failures) {
      const known = knownIssues.find((k) => k.matches(f))
      if (known !== undefined) {
        knownHits.set(known.name, (knownHits.get(known.name) ?? 0) + 1)
        continue
      }
      const key = `${f.check}|${f.op}|${f.response?.status ?? "-"}|${f.message.replace(/\d+/g, "N").slice(0, 120)}`
      const group = groups.get(key)
      if (group === undefined) groups.set(key, { count: 1, first: f })
      else group.count++
    }
    for (const [name, count] of knownHits) {
      console.log(`fuzz: KNOWN, NOT FIXED (${count} answers): ${name}. Fix: ${knownIssues.find((k) => k.name === name)?.fix}`)
    }
    const report = [...groups.values()].map((g) => `${g.count}× ${describeFailure(g.first)}`).join("\n\n")
    if (report !== "") console.log(`fuzz failures (seed ${seed}):\n\n${report}`)
    if (world.failures.some((f) => f.check === "prism" || f.check === "answer")) {
      console.log(`prism's log (--errors):\n${strict.output().slice(-3000)}\nprism's log:\n${lenient.output().slice(-3000)}`)
    }
    if (world.failures.some((f) => (f.response?.status ?? 0) >= 500)) console.log(`the server's log (warnings and errors):\n${gateway.output().slice(-8000)}`)
    // Every operation of the document was exercised (the counts above show how many answers were 2xx).
    for (const op of ops) expect(world.counts.has(`${op.method} ${op.path}`), `${op.id} was never called`).toBe(true)
    expect(report, `the fuzzer found answers that break the document (seed ${seed})`).toBe("")
  }, (seconds + 180) * 1000)
})
