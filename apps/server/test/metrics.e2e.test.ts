import { call } from "@gateway/adapters-http/testing"
import { Effect, Exit, Scope } from "effect"
import parse from "parse-prometheus-text-format"
import { randomBytes } from "node:crypto"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type Gateway, gateway, runToExit } from "../testing/Gateway.ts"
import { playerSession, poll, startWallet } from "./Wallet.ts"

const metricsToken = randomBytes(24).toString("base64url")
const scope = Effect.runSync(Scope.make())
const world = {} as { gw: Gateway; open: Gateway; wallet: Awaited<ReturnType<typeof startWallet>> }

beforeAll(async () => {
  world.wallet = await startWallet(() => ({ status: 200 }))
  const [gw, open] = await Promise.all([
    gateway({
      METRICS_TOKEN: metricsToken,
      RATE_LIMIT_RPS: "1",
      RATE_LIMIT_BURST: "10",
      WEBHOOK_TIMEOUT_MS: "500",
      WEBHOOK_RETRY_SCHEDULE: "0.2,0.2"
    }),
    gateway()
  ].map((started) => Effect.runPromise(Scope.provide(scope)(started))))
  world.gw = gw!
  world.open = open!
})
afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await world.wallet.close()
})

const bearer = { authorization: `Bearer ${metricsToken}` }
const API = "/api/v1.1/operator-api"
const gamesRoute = `${API}/games`
const launchRoute = `${API}/games/generate-launch-url`

/**
 * `/metrics` read and parsed twice: strictly (the parser throws on any line
 * that is not of the text format), and with the histograms' TYPE lines made
 * untyped, because the parser folds every labelled series of a histogram into
 * one; untyped, each `_count` series keeps its labels.
 */
const scrape = async (gw: Gateway, headers: Record<string, string> = bearer) => {
  const answer = await fetch(`${gw.url}/metrics`, { headers })
  const text = await answer.text()
  if (answer.status !== 200) return { status: answer.status, answer, text, value: () => 0, families: [] }
  const families = parse(text)
  const series = parse(text.replace(/^# TYPE (\S+) histogram$/gm, "# TYPE $1 untyped"))
  /** The value of the series `name` with exactly `labels`; 0 when it does not exist yet. */
  const value = (name: string, labels: Record<string, string> = {}): number => {
    const wanted = JSON.stringify(Object.entries(labels).sort())
    const found = series
      .filter((family) => family.name === name)
      .flatMap((family) => family.metrics)
      .find((sample) => JSON.stringify(Object.entries(sample.labels ?? {}).sort()) === wanted)
    return found === undefined ? 0 : Number(found.value)
  }
  return { status: answer.status, answer, text, value, families }
}

const requests = (method: string, route: string, status: number) =>
  ["gateway_http_request_duration_seconds_count", { method, route, status: String(status) }] as const

describe("metrics at GET /metrics, from the real server process", () => {
  it("asks for METRICS_TOKEN when it is set: 401 problem+json without it or with another", async () => {
    for (const headers of [{}, { authorization: "Bearer wrong-token-of-some-length" }, { authorization: metricsToken }]) {
      const refused = await call(`${world.gw.url}/metrics`, { headers })
      assert.strictEqual(refused.status, 401, refused.text)
      assert.strictEqual(refused.headers.get("content-type"), "application/problem+json")
      assert.strictEqual(refused.body.code, "UNAUTHORIZED")
    }
    const scraped = await scrape(world.gw)
    assert.strictEqual(scraped.status, 200, scraped.text)
    assert.strictEqual(scraped.answer.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8")
    assert.strictEqual(scraped.value(...requests("GET", "/metrics", 401)), 3)
  })

  it("counts requests, launches, Details calls, debits, deliveries and 429s, by bounded labels", async () => {
    const player = await playerSession(world.gw, world.wallet.url, "metrics@example.com")
    const merchant = String(player.merchantId)
    const keyed = { headers: { "sv-api-key": player.key } }
    const before = await scrape(world.gw)

    // A games page twice: the second answer is the kept one, served before routing.
    for (let i = 0; i < 2; i++) assert.strictEqual((await call(`${world.gw.url}${gamesRoute}?size=3`, keyed)).status, 200)
    // Launches: one real launch (a Details call), one unknown game, one whose Details answer is not the player's.
    const { sessionToken, token: launchToken } = await player.newSession()
    const unknown = await call(`${world.gw.url}${launchRoute}?gameId=no-such-game&playerId=p-1&sessionId=s-1&mode=real`, keyed)
    assert.strictEqual(unknown.status, 404, unknown.text)
    world.wallet.setDetails(() => ({ playerId: "someone-else", currency: "ETB", balance: "1.00" }))
    const wrongPlayer = await call(`${world.gw.url}${launchRoute}?gameId=odd-even&playerId=p-1&sessionId=s-2&mode=real`, keyed)
    assert.strictEqual(wrongPlayer.status, 502, wrongPlayer.text)
    // A round (a debit accepted, then its credit delivered through the outbox) and a debit refused.
    const round = await player.bet(sessionToken)
    assert.strictEqual(round.status, 200, round.text)
    world.wallet.setReply((_r, body) => body.type === "transaction.debit" ? { status: 402 } : { status: 200 })
    assert.strictEqual((await player.bet(sessionToken)).status, 402)
    // A path no route has: one label for all of them, never the path.
    assert.strictEqual((await call(`${world.gw.url}/no-such-path/12345`)).status, 404)
    // The key's bucket (10, one more a second) until it refuses.
    const statuses: Array<number> = []
    while (!statuses.includes(429) && statuses.length < 40) {
      statuses.push((await call(`${world.gw.url}${gamesRoute}?size=3`, keyed)).status)
    }
    const limited = statuses.filter((status) => status === 429).length
    assert.strictEqual(limited, 1, statuses.join())

    const after = await poll(
      () => scrape(world.gw),
      (scraped) => scraped.value("gateway_webhook_deliveries_total", { type: "transaction.credit", result: "delivered" }) >
        before.value("gateway_webhook_deliveries_total", { type: "transaction.credit", result: "delivered" })
    )
    const moved = (name: string, labels: Record<string, string> = {}) => after.value(name, labels) - before.value(name, labels)

    assert.strictEqual(moved(...requests("GET", gamesRoute, 200)), 2 + statuses.length - limited)
    assert.strictEqual(moved(...requests("GET", gamesRoute, 429)), limited)
    assert.strictEqual(moved("gateway_rate_limited_total", { route: gamesRoute }), limited)
    assert.strictEqual(moved(...requests("GET", launchRoute, 200)), 1)
    assert.strictEqual(moved(...requests("GET", launchRoute, 404)), 1)
    assert.strictEqual(moved(...requests("GET", launchRoute, 502)), 1)
    assert.strictEqual(moved(...requests("POST", "/api/v1.1/game-api/rounds", 200)), 1)
    assert.strictEqual(moved(...requests("POST", "/api/v1.1/game-api/rounds", 402)), 1)
    assert.strictEqual(moved(...requests("GET", "(no route)", 404)), 1)
    assert.isAtLeast(moved(...requests("GET", "/metrics", 200)), 1)
    assert.strictEqual(moved("gateway_launches_total", { outcome: "ok" }), 1)
    assert.strictEqual(moved("gateway_launches_total", { outcome: "GAME_NOT_FOUND" }), 1)
    assert.strictEqual(moved("gateway_launches_total", { outcome: "OPERATOR_BAD_RESPONSE" }), 1)
    // The real launch and the opening of its session each ask the Details URL.
    assert.strictEqual(moved("gateway_operator_details_duration_seconds_count", { merchant, outcome: "ok" }), 2)
    assert.strictEqual(moved("gateway_operator_details_duration_seconds_count", { merchant, outcome: "bad_response" }), 1)
    assert.strictEqual(moved("gateway_wallet_debit_duration_seconds_count", { merchant, outcome: "ok" }), 1)
    assert.strictEqual(moved("gateway_wallet_debit_duration_seconds_count", { merchant, outcome: "refused" }), 1)
    assert.strictEqual(moved("gateway_webhook_deliveries_total", { type: "transaction.credit", result: "delivered" }), 1)

    const types = new Map(after.families.map((family) => [family.name, family.type]))
    assert.deepInclude(Object.fromEntries(types), {
      gateway_http_request_duration_seconds: "HISTOGRAM",
      gateway_rate_limited_total: "COUNTER",
      gateway_launches_total: "COUNTER",
      gateway_operator_details_duration_seconds: "HISTOGRAM",
      gateway_wallet_debit_duration_seconds: "HISTOGRAM",
      gateway_webhook_deliveries_total: "COUNTER",
      gateway_outbox_pending: "GAUGE",
      gateway_outbox_oldest_pending_age_seconds: "GAUGE",
      gateway_db_connections: "GAUGE",
      gateway_db_pool_max_connections: "GAUGE"
    })
    assert.strictEqual(after.value("gateway_db_pool_max_connections"), 10)
    assert.isAtLeast(after.value("gateway_db_connections", { state: "active" }), 1, "the scrape's own query")
    assert.isAtLeast(after.value("gateway_outbox_pending"), 0)

    const labelValues = after.families.flatMap((family) => family.metrics.flatMap((sample) => Object.values(sample.labels ?? {})))
    assert.isFalse(labelValues.some((label) => label.includes("12345") || label.includes("no-such")), "a path's values")
    for (const secret of [player.key, player.key.split(".")[1] ?? "", sessionToken, launchToken, metricsToken, player.encryptionKey]) {
      assert.isFalse(after.text.includes(secret), "a secret in the metrics")
    }
  })

  it("has the standard process and Node.js runtime series, read at each scrape", async () => {
    const types = (families: ReadonlyArray<{ readonly name: string; readonly type: string }>) =>
      Object.fromEntries(families.map((family) => [family.name, family.type]))
    const before = await scrape(world.open, {})
    await Promise.all(Array.from({ length: 100 }, () => fetch(`${world.open.url}/openapi.json`).then((r) => r.text())))
    const after = await scrape(world.open, {})
    assert.deepInclude(types(after.families), {
      process_cpu_user_seconds_total: "COUNTER",
      process_cpu_system_seconds_total: "COUNTER",
      process_cpu_seconds_total: "COUNTER",
      process_start_time_seconds: "GAUGE",
      process_resident_memory_bytes: "GAUGE",
      process_open_fds: "GAUGE",
      nodejs_heap_size_total_bytes: "GAUGE",
      nodejs_heap_size_used_bytes: "GAUGE",
      nodejs_external_memory_bytes: "GAUGE",
      nodejs_active_resources_total: "GAUGE",
      nodejs_eventloop_lag_mean_seconds: "GAUGE",
      nodejs_eventloop_lag_p99_seconds: "GAUGE",
      nodejs_eventloop_lag_max_seconds: "GAUGE",
      nodejs_version_info: "GAUGE",
      nodejs_gc_duration_seconds: "HISTOGRAM"
    })
    assert.isAbove(after.value("process_cpu_seconds_total"), before.value("process_cpu_seconds_total"))
    assert.closeTo(
      after.value("process_cpu_seconds_total"),
      after.value("process_cpu_user_seconds_total") + after.value("process_cpu_system_seconds_total"),
      1e-6
    )
    const startedAt = after.value("process_start_time_seconds")
    assert.isTrue(startedAt > Date.now() / 1000 - 600 && startedAt <= Date.now() / 1000, `start time ${startedAt}`)
    assert.isAbove(after.value("process_resident_memory_bytes"), 10 * 1024 * 1024)
    assert.isAbove(after.value("nodejs_heap_size_used_bytes"), 1024 * 1024)
    assert.isAbove(after.value("process_open_fds"), 3)
    assert.isAtLeast(after.value("nodejs_eventloop_lag_max_seconds"), after.value("nodejs_eventloop_lag_p99_seconds"))
    const [major = "", minor = "", patch = ""] = process.versions.node.split(".")
    assert.strictEqual(after.value("nodejs_version_info", { version: process.version, major, minor, patch }), 1)
    const collections = ["major", "minor", "incremental", "weakcb"]
      .reduce((n, kind) => n + after.value("nodejs_gc_duration_seconds_count", { kind }), 0)
    assert.isAbove(collections, 0, "garbage collections while serving 100 OpenAPI documents")
  })

  it("refuses to start with a METRICS_TOKEN shorter than 16 characters, naming it", async () => {
    const { code, output } = await runToExit({ METRICS_TOKEN: "short" })
    assert.strictEqual(code, 1, output)
    assert.include(output, "METRICS_TOKEN")
    assert.notInclude(output, "short")
  })

  it("is open without METRICS_TOKEN, with a warning at start", async () => {
    const scraped = await scrape(world.open, {})
    assert.strictEqual(scraped.status, 200, scraped.text)
    assert.isAtLeast(scraped.value("gateway_db_pool_max_connections"), 1)
    assert.include(world.open.output(), "METRICS_TOKEN is not set")
  })
})
