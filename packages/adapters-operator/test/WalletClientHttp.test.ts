import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Redacted } from "effect"
import type { SettingsValues } from "@gateway/domain/MerchantSettings"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { WalletClient } from "@gateway/domain/ports/WalletClient"
import { makeMerchantRepo, merchantWith } from "@gateway/domain/testing"
import type { WalletTransaction } from "@gateway/domain/Wallet"
import { json, type Received, startOperator } from "@gateway/adapters-operator/testing"
import { Webhook } from "standardwebhooks"
import * as OperatorCircuit from "../src/http/OperatorCircuit.ts"
import * as WalletClientHttp from "../src/wallet/WalletClientHttp.ts"
import { credentials, secrets, signedHeaders, signedPost } from "./fixtures.ts"

const debit: WalletTransaction = {
  type: "transaction.debit",
  transactionId: "5f0c6a4e-0d7a-4d1e-9f0e-1a2b3c4d5e6f",
  roundId: "r-1",
  roundClosed: false,
  merchantId: 7,
  playerId: "p-1",
  sessionId: "s-1",
  gameId: "odd-even",
  amount: { currency: "ETB", minor: 1250n }
}

const call = (settings: SettingsValues, timeoutMs = 2000) => {
  const merchant = merchantWith(settings)
  return WalletClient.use((w) => w.debit(merchant, debit)).pipe(
    Effect.provide(
      WalletClientHttp.layer(timeoutMs).pipe(
        Layer.provide(signedPost(true)),
        Layer.provide(Layer.succeed(MerchantRepo, makeMerchantRepo([merchant], secrets).service))
      )
    ),
    Effect.exit
  )
}

const outcome = (exit: Exit.Exit<{ balance: string }, { readonly _tag: string; readonly message: string }>) =>
  Exit.isSuccess(exit)
    ? `balance ${exit.value.balance}`
    : Exit.findErrorOption(exit).pipe((o) => o._tag === "Some" ? `${o.value._tag}: ${o.value.message}` : "defect")

const withOperator = <A>(
  reply: Parameters<typeof startOperator>[0],
  f: (url: string, received: Array<Received>) => Effect.Effect<A>
) =>
  Effect.acquireUseRelease(
    Effect.promise(() => startOperator(reply)),
    (op) => f(op.url, op.received),
    (op) => Effect.promise(op.close)
  )

describe("WalletClientHttp against a real operator on 127.0.0.1", () => {
  it.live("after 2 failed debits in a row, a debit is OperatorUnavailable at once and never sent; a 402 does not count", () =>
    withOperator((r, res) => json(res, r.body.includes('"p-broke"') ? 402 : 503, {}), (url, received) => {
      const merchant = merchantWith({ webhookUrl: `${url}/wallet` })
      const debitOf = (playerId: string) => WalletClient.use((w) => w.debit(merchant, { ...debit, playerId })).pipe(Effect.exit)
      return Effect.gen(function*() {
        assert.match(outcome(yield* debitOf("p-1")), /^WalletUnavailable/)
        assert.match(outcome(yield* debitOf("p-broke")), /^BetRefused/, "a refusal is an answer: the streak restarts")
        assert.match(outcome(yield* debitOf("p-1")), /^WalletUnavailable/)
        assert.match(outcome(yield* debitOf("p-1")), /^WalletUnavailable/)
        assert.strictEqual(received.length, 4)
        assert.match(outcome(yield* debitOf("p-1")), /^OperatorUnavailable: .*retry after 1 s$/)
        assert.strictEqual(received.length, 4, "the debit was not sent: nothing to refund")
      }).pipe(
        Effect.provide(
          WalletClientHttp.layer(2000).pipe(
            Layer.provide(signedPost(true, OperatorCircuit.layerMemory({ failures: 2, openMs: 500 }))),
            Layer.provide(Layer.succeed(MerchantRepo, makeMerchantRepo([merchant], secrets).service))
          )
        )
      )
    }))

  it.live("posts the signed debit body to webhookUrl; the answer's balance is returned", () =>
    withOperator((_r, res) => json(res, 200, { balance: "87.50" }), (url, received) =>
      Effect.gen(function*() {
        const exit = yield* call({ webhookUrl: `${url}/wallet`, debitWebhookUrl: `${url}/debit` })
        assert.strictEqual(outcome(exit), "balance 87.50")
        assert.strictEqual(received.length, 1)
        const [r] = received
        if (r === undefined) return
        assert.strictEqual(r.url, "/wallet")
        const headers = signedHeaders(r.headers)
        assert.strictEqual(headers["webhook-id"], debit.transactionId)
        const verified = new Webhook(Redacted.value(credentials.encryptionKey)).verify(r.body, headers)
        assert.deepInclude(verified, { type: "transaction.debit" })
        const body = JSON.parse(r.body)
        assert.deepStrictEqual(body.data, {
          transactionId: debit.transactionId,
          roundId: "r-1",
          roundClosed: false,
          merchantId: 7,
          playerId: "p-1",
          sessionId: "s-1",
          gameId: "odd-even",
          amount: "12.50",
          currency: "ETB"
        })
        assert.isTrue(Math.abs(Date.parse(body.timestamp) - Date.now()) < 60_000)
      })))

  it.live("posts to debitWebhookUrl when isSeperateWebhookUrl is true", () =>
    withOperator((_r, res) => json(res, 200, { balance: "1.00" }), (url, received) =>
      Effect.gen(function*() {
        const exit = yield* call({
          isSeperateWebhookUrl: true,
          webhookUrl: `${url}/wallet`,
          debitWebhookUrl: `${url}/debit`,
          creditWebhookUrl: `${url}/credit`
        })
        assert.strictEqual(outcome(exit), "balance 1.00")
        assert.deepStrictEqual(received.map((r) => r.url), ["/debit"])
      })))

  it.live("a 402 is BetRefused with the status", () =>
    withOperator((_r, res) => json(res, 402, { error: "insufficient funds" }), (url) =>
      Effect.gen(function*() {
        assert.match(outcome(yield* call({ webhookUrl: url })), /^BetRefused: .*HTTP 402/)
      })))

  it.live("a slow wallet is WalletUnavailable within the time-out, and the debit was sent once", () =>
    withOperator((_r, res) => { setTimeout(() => json(res, 200, { balance: "1.00" }), 3000) }, (url, received) =>
      Effect.gen(function*() {
        const started = Date.now()
        const exit = yield* call({ webhookUrl: url }, 300)
        assert.match(outcome(exit), /^WalletUnavailable: .*300 ms/)
        assert.isBelow(Date.now() - started, 1500)
        assert.strictEqual(received.length, 1)
      })))

  for (const [what, reply] of [
    ["a 500", (res: Parameters<typeof json>[0]) => json(res, 500, {})],
    ["a 2xx without a balance", (res: Parameters<typeof json>[0]) => json(res, 200, { ok: true })],
    ["a float balance", (res: Parameters<typeof json>[0]) => json(res, 200, { balance: 12.5 })],
    ["garbage", (res: Parameters<typeof json>[0]) => json(res, 200, "<html>")],
    ["a redirect", (res: Parameters<typeof json>[0]) => { res.writeHead(302, { location: "http://example.com" }); res.end() }]
  ] as const) {
    it.live(`${what} is WalletUnavailable`, () =>
      withOperator((_r, res) => reply(res), (url, received) =>
        Effect.gen(function*() {
          assert.match(outcome(yield* call({ webhookUrl: url })), /^WalletUnavailable/)
          assert.strictEqual(received.length, 1)
        })))
  }

  it.live("an unreachable wallet is WalletUnavailable", () =>
    Effect.gen(function*() {
      const op = yield* Effect.promise(() => startOperator((_r, res) => json(res, 200, {})))
      yield* Effect.promise(op.close)
      assert.match(outcome(yield* call({ webhookUrl: op.url })), /^WalletUnavailable/)
    }))

  it.live("no webhook URL is WalletUnavailable without any call", () =>
    Effect.gen(function*() {
      assert.strictEqual(outcome(yield* call({})), "WalletUnavailable: no webhook URL configured; the bet was rejected and any debit will be refunded")
    }))
})
