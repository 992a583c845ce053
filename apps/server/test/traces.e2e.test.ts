import { call } from "@gateway/adapters-http/testing"
import { json, startOperator } from "@gateway/adapters-operator/testing"
import { Effect, Exit, Scope } from "effect"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type Gateway, gateway } from "../testing/Gateway.ts"
import { eventually, playerSession, startWallet } from "./Wallet.ts"

/** A span as OTLP/JSON carries it, with the service that sent it. */
interface OtlpSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: Record<string, unknown> }>
  readonly service: string
}

const serverKind = 2
const clientKind = 3
const consumerKind = 5

/** An OTLP/HTTP collector on 127.0.0.1: it accepts `POST /v1/traces` (JSON) and keeps every span and raw body. */
const startReceiver = async () => {
  const spans: Array<OtlpSpan> = []
  const bodies: Array<string> = []
  const collector = await startOperator(({ method, url, headers, body }, res) => {
    if (method !== "POST" || url !== "/v1/traces" || headers["content-type"] !== "application/json") {
      res.writeHead(404).end()
      return
    }
    bodies.push(body)
    for (const resource of JSON.parse(body).resourceSpans) {
      const service = resource.resource.attributes.find((a: { key: string }) => a.key === "service.name")?.value.stringValue
      for (const scope of resource.scopeSpans) for (const span of scope.spans) spans.push({ ...span, service })
    }
    json(res, 200, {})
  })
  return { url: collector.url, spans, bodies, close: collector.close }
}

const attribute = (span: OtlpSpan, key: string): unknown => {
  const value = span.attributes.find((a) => a.key === key)?.value
  return value === undefined ? undefined : Object.values(value)[0]
}

/** The trace and span ids of a W3C `traceparent`; fails the test when the header is missing or malformed. */
const parseTraceparent = (header: string | Array<string> | undefined) => {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(header))
  assert.isNotNull(match, `traceparent: ${header}`)
  return { traceId: match?.[1] ?? "", spanId: match?.[2] ?? "" }
}

/** The span that `matches`, once it has arrived. */
const arrived = async (spans: ReadonlyArray<OtlpSpan>, matches: (span: OtlpSpan) => boolean): Promise<OtlpSpan> => {
  await eventually(() => spans.some(matches))
  const span = spans.find(matches)
  if (span === undefined) throw new Error("no such span")
  return span
}

/** The spans from `span` up to its root, as far as they have arrived. */
const ancestry = (spans: ReadonlyArray<OtlpSpan>, span: OtlpSpan): Array<OtlpSpan> => {
  const chain = [span]
  for (let at = span; at.parentSpanId;) {
    const parent = spans.find((s) => s.spanId === at.parentSpanId && s.traceId === at.traceId)
    if (parent === undefined) break
    chain.push(parent)
    at = parent
  }
  return chain
}

const receiver = await startReceiver()
const wallet = await startWallet(() => ({ status: 200 }))
const scope = Effect.runSync(Scope.make())
const started = (env: Record<string, string>) => Effect.runPromise(Scope.provide(scope)(gateway(env)))
let traced: Gateway

beforeAll(async () => {
  traced = await started({
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_BSP_SCHEDULE_DELAY: "100",
    WEBHOOK_TIMEOUT_MS: "2000",
    WEBHOOK_RETRY_SCHEDULE: "0.2"
  })
})
afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await wallet.close()
  await receiver.close()
})

describe("traces over OTLP (OTEL_EXPORTER_OTLP_ENDPOINT)", () => {
  it("a launch's request span arrives with the Details call below it, and the operator sees that call's traceparent", async () => {
    const player = await playerSession(traced, wallet.url, "traces-launch@example.com")
    const before = wallet.received.length
    const token = await player.launch()
    assert.notStrictEqual(token, "")
    const details = wallet.received.slice(before).find((r) => r.url === "/details")
    const sent = parseTraceparent(details?.headers["traceparent"])

    const detailsCall = await arrived(receiver.spans, (s) => s.spanId === sent.spanId)
    assert.strictEqual(detailsCall.name, "OperatorDetails.fetch")
    assert.strictEqual(detailsCall.traceId, sent.traceId)
    assert.strictEqual(detailsCall.kind, clientKind)
    assert.strictEqual(attribute(detailsCall, "server.address"), "127.0.0.1")
    assert.strictEqual(attribute(detailsCall, "http.response.status_code"), 200)

    const route = "/api/v1.1/operator-api/games/generate-launch-url"
    const request = await arrived(receiver.spans, (s) => s.traceId === sent.traceId && s.kind === serverKind)
    assert.strictEqual(request.name, `GET ${route}`)
    assert.strictEqual(request.service, "operator-gateway")
    assert.isUndefined(request.parentSpanId)
    assert.strictEqual(attribute(request, "http.request.method"), "GET")
    assert.strictEqual(attribute(request, "http.route"), route)
    assert.strictEqual(attribute(request, "http.response.status_code"), 200)
    assert.strictEqual(attribute(request, "url.full"), `${traced.url}${route}`)
    assert.isUndefined(attribute(request, "url.query"))
    await eventually(() => ancestry(receiver.spans, detailsCall).at(-1) === request)
  })

  it("a real round's debit and the worker's credit carry the traceparent of their own spans", async () => {
    const player = await playerSession(traced, wallet.url, "traces-round@example.com")
    const { sessionToken } = await player.newSession()
    const round = await player.bet(sessionToken, "10.00")
    assert.strictEqual(round.status, 200, round.text)
    const messages = () => wallet.messages().filter((m) => m.body.data.roundId === round.body.roundId)
    await eventually(() => messages().length === 2)

    const debit = messages().find((m) => m.body.type === "transaction.debit")
    const debitIds = parseTraceparent(debit?.headers["traceparent"])
    const debitSpan = await arrived(receiver.spans, (s) => s.spanId === debitIds.spanId)
    await eventually(() => ancestry(receiver.spans, debitSpan).at(-1)?.kind === serverKind)
    assert.strictEqual(debitSpan.name, "WalletClient.debit")
    assert.strictEqual(debitSpan.traceId, debitIds.traceId)
    assert.strictEqual(ancestry(receiver.spans, debitSpan).at(-1)?.name, "POST /api/v1.1/game-api/rounds")

    const credit = messages().find((m) => m.body.type === "transaction.credit")
    const creditIds = parseTraceparent(credit?.headers["traceparent"])
    assert.notStrictEqual(creditIds.traceId, debitIds.traceId)
    const creditSpan = await arrived(receiver.spans, (s) => s.spanId === creditIds.spanId)
    assert.strictEqual(creditSpan.name, "DeliveryWorker.send")
    const delivery = await arrived(receiver.spans, (s) => s.spanId === creditSpan.parentSpanId)
    assert.strictEqual(delivery.name, "DeliveryWorker.deliver")
    assert.strictEqual(delivery.kind, consumerKind)
    assert.isUndefined(delivery.parentSpanId)
    assert.strictEqual(attribute(delivery, "delivery.type"), "transaction.credit")
    assert.strictEqual(attribute(delivery, "delivery.id"), credit?.body.data.transactionId)

    const secrets = [player.key, player.encryptionKey, player.admin.authorization.slice("Bearer ".length), sessionToken]
    const launchToken = await player.launch()
    const page = await call(`${traced.url}/play/odd-even?token=${launchToken}`)
    assert.strictEqual(page.status, 200)
    await eventually(() => receiver.spans.some((s) => s.name === "GET /play/:gameId"))
    const exported = receiver.bodies.join("\n")
    for (const secret of [...secrets, launchToken, traced.authSecret]) {
      assert.isFalse(exported.includes(secret), `a secret was exported: ${secret.slice(0, 12)}…`)
    }
    assert.notInclude(exported, "token=")
    assert.notInclude(exported, "sv-api-key")
  })

  it("every exported trace starts at a request or a delivery: the outbox's polling is not exported", async () => {
    await eventually(() => receiver.spans.some((s) => s.name === "GET /health"))
    const roots = receiver.spans.filter((s) => s.parentSpanId === undefined)
    assert.deepStrictEqual(roots.filter((s) => s.kind !== serverKind && s.kind !== consumerKind).map((s) => s.name), [])
    assert.isFalse(receiver.spans.some((s) => s.name === "DeliveryQueue.claim"))
  })

  it("SIGTERM sends the spans still buffered before the process exits", async () => {
    const slow = await started({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: "600000" })
    const answer = await call(`${slow.url}/api/v1.1/game-api/games/odd-even/rules`)
    assert.strictEqual(answer.status, 200)
    const named = () => receiver.spans.filter((s) => s.name === "GET /api/v1.1/game-api/games/:gameId/rules")
    const already = named().length
    assert.strictEqual(await slow.stop("SIGTERM"), 0)
    assert.strictEqual(named().length, already + 1)
  })

  it("without an endpoint nothing is traced: a launch's Details call carries no traceparent", async () => {
    const plain = await started({})
    const player = await playerSession(plain, wallet.url, "traces-off@example.com")
    const before = wallet.received.length
    await player.launch()
    const details = wallet.received.slice(before).find((r) => r.url === "/details")
    assert.isDefined(details)
    assert.isUndefined(details?.headers["traceparent"])
  })
})
