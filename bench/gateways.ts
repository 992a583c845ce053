/**
 * The gateway as the bench runs it: the real server in a child process
 * (`spawnGateway`), registered for clean-up, and the one merchant created
 * through its admin API, whose row the seed clones.
 */
import { Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { adminToken, call } from "@gateway/adapters-http/testing"
import { defaultCost } from "@gateway/adapters-operator/crypto/PasswordHash"
import { prepare, type SigningKeys } from "@gateway/adapters-operator/webhooks/Signature"
import { type Gateway, spawnGateway } from "@gateway/server/testing"
import { stopProcess, track } from "./children.ts"
import { numberField, stringField } from "./json.ts"

/** The environment every gateway instance of one bench run shares (one database, one key, one admin secret). */
export const gatewayEnv = (databaseUrl: string): Record<string, string> => ({
  DATABASE_URL: databaseUrl,
  DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  AUTH_JWT_SECRET: randomBytes(32).toString("base64url"),
  ALLOW_PRIVATE_OPERATOR_URLS: "true",
  LOG_LEVEL: "Warn",
  RATE_LIMIT_RPS: "0",
  ...(process.env["BENCH_BREAKER_OFF"] === "1" ? { OPERATOR_BREAKER_FAILURES: "0" } : {}),
  // scrypt at its default cost, as in production (spawnGateway lowers it for the tests).
  PASSWORD_HASH_COST: String(defaultCost),
  // /metrics protected, as in production (an open one is warned about at start).
  METRICS_TOKEN: randomBytes(24).toString("base64url"),
  // Only written into launch URLs and token issuers; never contacted.
  PUBLIC_BASE_URL: "https://play.bench.example"
})

/** A running gateway of the bench. */
export interface BenchGateway {
  readonly url: string
  readonly pid: number
  readonly authSecret: string
  readonly gateway: Gateway
  /** SIGTERM (it drains for up to 10 s), then SIGKILL. */
  readonly stop: () => Promise<void>
}

/** Spawns a gateway with `env` and waits until it is healthy. */
export const startGateway = async (env: Record<string, string>): Promise<BenchGateway> => {
  const gateway = await spawnGateway(env)
  track(gateway.process)
  const pid = gateway.process.pid
  if (pid === undefined) throw new Error("the gateway process has no pid")
  return {
    url: gateway.url,
    pid,
    authSecret: gateway.authSecret,
    gateway,
    stop: () => stopProcess(gateway.process, "SIGTERM", 15_000)
  }
}

/** The measured gateway, replaced by a fresh instance (and the event reported) when it exits under load. */
export interface Supervised {
  readonly current: () => BenchGateway
  /** Starts a new instance when the current one has exited; returns what happened, if anything. */
  readonly ensureAlive: (during: string) => Promise<string | undefined>
}

/** Starts the measured gateway; `onStart` learns every instance (for memory sampling). */
export const supervise = async (env: Record<string, string>, onStart: (gateway: BenchGateway) => void): Promise<Supervised> => {
  let current = await startGateway(env)
  onStart(current)
  return {
    current: () => current,
    ensureAlive: async (during) => {
      const { exitCode, signalCode } = current.gateway.process
      if (exitCode === null && signalCode === null) return undefined
      const event = `the gateway exited (code ${exitCode ?? signalCode}) during ${during} and was restarted; ` +
        `its output: ${JSON.stringify(current.gateway.output().slice(-500))}`
      current = await startGateway(env)
      onStart(current)
      return event
    }
  }
}

/** The merchant made through the API: its id and its signing secrets (shown once, at creation). */
export interface CreatedMerchant {
  readonly id: number
  readonly keys: SigningKeys
}

/** `POST /api/v1.1/operator-api/create` with an admin token (the one slow, scrypt-hashing path). */
export const createMerchant = async (gateway: BenchGateway): Promise<CreatedMerchant> => {
  const answer = await call(`${gateway.url}/api/v1.1/operator-api/create`, {
    method: "POST",
    headers: { authorization: `Bearer ${await adminToken(gateway.authSecret)}` },
    json: { countryCodes: ["ET"], companyName: "Bench Operator 1", email: "bench-1@bench.example", providerId: 1 }
  })
  if (answer.status !== 201) throw new Error(`merchant create answered ${answer.status}: ${answer.text.slice(0, 300)}`)
  const body: unknown = answer.body
  return {
    id: numberField(body, "id"),
    keys: prepare({
      encryptionKey: Redacted.make(stringField(body, "encryptionKey")),
      privateKey: Redacted.make(stringField(body, "privateKey"))
    })
  }
}

/**
 * What the gateway logged (at LOG_LEVEL=Warn every line is a warning or
 * worse), as kinds of lines with ids and times blanked, most frequent first.
 */
export const loggedKinds = (gateway: BenchGateway): Array<{ readonly kind: string; readonly count: number }> => {
  const kinds = new Map<string, number>()
  for (const line of gateway.gateway.output().split("\n")) {
    if (line.trim() === "") continue
    const kind = line
      .replace(/"time":"[^"]*",?/g, "")
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<id>")
      .slice(0, 300)
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
  }
  return [...kinds].map(([kind, count]) => ({ kind, count })).sort((a, b) => b.count - a.count)
}
