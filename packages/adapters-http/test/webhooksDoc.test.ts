import { Ajv2020 } from "ajv/dist/2020.js"
import { OpenApi } from "effect/http-api"
import { Callback, Money, Player, Wallet } from "@gateway/domain"
import { describe, expect, it } from "vitest"
import { Api } from "@gateway/client/api/Api"

/**
 * The `webhooks` section of /openapi.json (CONTRACT §8): every call the
 * gateway makes to an operator, with bodies that the domain's own encoders
 * satisfy. (Bodies captured from a real gateway are checked against the served
 * document in apps/server/test/exampleOperator.e2e.test.ts.)
 */
const doc: any = OpenApi.fromApi(Api)

/** Validates against a schema of the document, `$ref`s into `components.schemas` resolved. */
const ajv = new Ajv2020({ strict: false, allErrors: true })
ajv.addSchema({ $id: "https://gateway.test/openapi.json", components: doc.components })
const validatorOf = (schema: { $ref?: string }) =>
  ajv.compile({ $ref: `https://gateway.test/openapi.json${String(schema.$ref)}` })
const bodyOf = (name: string) => validatorOf(doc.webhooks[name].post.requestBody.content["application/json"].schema)

const tx: Wallet.WalletTransaction = {
  type: "transaction.credit",
  transactionId: "6f1c2d1e-0000-4000-8000-000000000002",
  refTransactionId: "6f1c2d1e-0000-4000-8000-000000000001",
  roundId: "r-1",
  roundClosed: true,
  merchantId: 7,
  playerId: "p-1",
  sessionId: "s-1",
  gameId: "odd-even",
  amount: Money.make(1250n, "ETB")
}

describe("the webhooks section of /openapi.json", () => {
  it("is an OpenAPI 3.1 document listing exactly the nine calls to an operator, each a signed POST", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/)
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      "details",
      "round.settled",
      "session.ended",
      "session.started",
      "shop",
      "transaction.credit",
      "transaction.debit",
      "transaction.refund",
      "webhook.test"
    ])
    for (const item of Object.values<any>(doc.webhooks)) {
      expect(Object.keys(item)).toEqual(["post"])
      expect(item.post.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([
        ["webhook-id", "header", true],
        ["webhook-timestamp", "header", true],
        ["webhook-signature", "header", true],
        ["traceparent", "header", false]
      ])
      expect(item.post.requestBody.required).toBe(true)
      expect(Object.keys(item.post.responses)).toContain("5XX")
    }
    expect(Object.keys(doc.webhooks["transaction.debit"].post.responses)).toEqual(["200", "402", "4XX", "5XX"])
    expect(doc.tags.map((t: any) => t.name)).toContain("Calls to the operator")
  })

  it("documents the bodies the domain sends and the answers it decodes", () => {
    for (const type of ["transaction.debit", "transaction.credit", "transaction.refund"] as const) {
      const validate = bodyOf(type)
      const body = Wallet.toWebhookBody({ ...tx, type }, "2026-11-21T22:00:00.000Z")
      expect(validate(JSON.parse(JSON.stringify(body))), JSON.stringify(validate.errors)).toBe(true)
      expect(bodyOf(type === "transaction.debit" ? "transaction.credit" : "transaction.debit")(body)).toBe(false)
      expect(validate({ ...body, data: { ...body.data, amount: 12.5 } })).toBe(false)
    }
    const { refTransactionId: _, ...debit } = tx
    expect(bodyOf("transaction.debit")(Wallet.toWebhookBody({ ...debit, type: "transaction.debit" }, "t"))).toBe(true)
    const details: Player.DetailsRequest = { playerId: "p-1", sessionId: "s-1", gameId: "odd-even", mode: "real", currency: "ETB" }
    expect(bodyOf("details")(details)).toBe(true)
    expect(bodyOf("details")({ ...details, mode: "fun" })).toBe(false)
    expect(bodyOf("webhook.test")({ type: "webhook.test", timestamp: "t", data: { merchantId: 7 } })).toBe(true)

    const linked = Wallet.toWebhookBody({ ...tx, roundDetailsUrl: "https://gw.example/rounds/r-1?sig=abc" }, "t")
    expect(bodyOf("transaction.credit")(JSON.parse(JSON.stringify(linked)))).toBe(true)
    const session = { merchantId: 7, playerId: "p-1", sessionId: "s-1", gameId: "odd-even", currency: "ETB" as const }
    expect(bodyOf("session.started")(Callback.sessionStartedBody(session, "t"))).toBe(true)
    const ended = Callback.sessionEndedBody(session, "expired", { rounds: 3, bets: 1500n, wins: 1225n }, "t")
    expect(ended.data).toMatchObject({ rounds: 3, bets: "15.00", wins: "12.25" })
    expect(bodyOf("session.ended")(ended)).toBe(true)
    expect(bodyOf("session.ended")({ ...ended, data: { ...ended.data, reason: "bored" } })).toBe(false)
    const settled = Callback.roundSettledBody(
      { roundId: "r-1", session, stake: 1000n, payout: 1950n, selection: "\"odd\"", outcome: "{\"number\":17,\"summary\":\"17 odd\"}" },
      "https://gw.example/rounds/r-1?sig=abc",
      "t"
    )
    expect(settled.data).toMatchObject({ stake: "10.00", payout: "19.50", selection: "odd", outcome: { number: 17 } })
    expect(bodyOf("round.settled")(JSON.parse(JSON.stringify(settled)))).toBe(true)
    expect(bodyOf("session.started")(settled)).toBe(false)

    const player = validatorOf(doc.webhooks["details"].post.responses["200"].content["application/json"].schema)
    expect(player({ playerId: "p-1", currency: "ETB", balance: "100.00", status: "active" })).toBe(true)
    expect(player({ playerId: "p-1", currency: "ETB", balance: 100 })).toBe(false)
    expect(player({ playerId: "p-1", currency: "ETB", balance: "1e3" })).toBe(false)
    const balance = validatorOf(doc.webhooks["transaction.debit"].post.responses["200"].content["application/json"].schema)
    expect(balance({ balance: "990.00" })).toBe(true)
    expect(balance({ balance: 990 })).toBe(false)
  })
})
