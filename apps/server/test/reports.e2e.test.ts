import { call } from "@gateway/adapters-http/testing"
import { assert, describe, it } from "vitest"
import { eventually, playerSession, poll, walletAndGateway, type WalletMessage } from "./Wallet.ts"

const world = walletAndGateway()

/** Sums decimal strings of two minor digits exactly. */
const sum = (amounts: ReadonlyArray<string>) => {
  const minor = amounts.reduce((acc, a) => acc + BigInt(a.replace(".", "")), 0n)
  return `${minor / 100n}.${String(minor % 100n).padStart(2, "0")}`
}

describe("reconciliation for operators, served by the real server process", () => {
  it("the summary equals what the wallet accepted per type, and the round list shows each round's transactions", async () => {
    const from = new Date(Date.now() - 60_000).toISOString()
    const accepted = new Map<string, WalletMessage>()
    let debits: "accept" | "refuse" | "slow" = "accept"
    world.wallet.setReply((_r, body) => {
      if (body.type === "transaction.debit" && debits === "refuse") return { status: 402 }
      accepted.set(body.data.transactionId, body)
      return body.type === "transaction.debit" && debits === "slow" ? { status: 200, delayMs: 1500 } : { status: 200 }
    })
    const player = await playerSession(world.gw, world.wallet.url, "reports@example.com")
    const other = await playerSession(world.gw, world.wallet.url, "reports-other@example.com")
    const { sessionToken } = await player.newSession()
    const stakes = ["1.01", "1.00", "2.50", "10.00", "499.99", "3.33"]
    for (const [i, stake] of stakes.entries()) {
      const round = await player.bet(sessionToken, stake, i % 2 === 0 ? "odd" : "even")
      assert.strictEqual(round.status, 200, round.text)
    }
    debits = "refuse"
    assert.strictEqual((await player.bet(sessionToken, "7.00")).status, 402)
    debits = "slow"
    assert.strictEqual((await player.bet(sessionToken, "4.00")).status, 502)
    debits = "accept"
    await eventually(() => [...accepted.values()].filter((m) => m.type !== "transaction.debit").length === stakes.length + 1)
    const to = new Date(Date.now() + 60_000).toISOString()
    const headers = { "sv-api-key": player.key }
    const api = `${world.gw.url}/api/v1.1/operator-api`

    const summary = await call(`${api}/reports/summary?from=${from}&to=${to}&groupBy=player`, { headers })
    assert.strictEqual(summary.status, 200, summary.text)
    const of = (type: string) => sum([...accepted.values()].filter((m) => m.type === type).map((m) => m.data.amount))
    const total = summary.body.total
    assert.deepStrictEqual(
      [total.rounds, total.bets, total.wins, total.refunds],
      [stakes.length + 1, of("transaction.debit"), of("transaction.credit"), of("transaction.refund")]
    )
    assert.strictEqual(total.refunds, "4.00")
    const ggr = BigInt(total.bets.replace(".", "")) - BigInt(total.wins.replace(".", "")) - BigInt(total.refunds.replace(".", ""))
    assert.strictEqual(BigInt(total.ggr.replace(".", "")), ggr)
    assert.deepStrictEqual(summary.body.data.map((row: { key: string }) => row.key), ["p-1"])

    const listed = await poll(
      () => call(`${api}/rounds?from=${from}&to=${to}&limit=100`, { headers }),
      (answer) =>
        answer.status === 200 &&
        answer.body.data.every((r: any) => r.transactions.every((t: any) => t.status !== "pending"))
    )
    assert.strictEqual(listed.body.meta.totalElements, stakes.length + 2)
    const sent = world.wallet.messages().filter((m) => m.body.data.playerId === "p-1")
    for (const round of listed.body.data) {
      const expected = sent
        .filter((m) => m.body.data.roundId === round.roundId)
        .map((m) => [m.body.data.transactionId, m.body.type.replace("transaction.", ""), m.body.data.amount])
      assert.deepStrictEqual(round.transactions.map((t: any) => [t.transactionId, t.type, t.amount]), expected)
      assert.deepStrictEqual([round.playerId, round.sessionId, round.currency, round.mode], ["p-1", "s-reports@example.com", "ETB", "real"])
    }
    const statuses = listed.body.data.map((r: any) => [r.status, r.transactions.map((t: any) => t.status)])
    assert.deepStrictEqual(statuses.slice(0, 2), [["failed", ["unknown", "delivered"]], ["refused", ["refused"]]])
    assert.isTrue(statuses.slice(2).every(([status, states]: [string, Array<string>]) =>
      status === "settled" && states.join() === "delivered,delivered"))

    const credit = listed.body.data[2].transactions[1]
    const one = await call(`${api}/transactions/${credit.transactionId}`, { headers })
    assert.strictEqual(one.status, 200, one.text)
    assert.deepStrictEqual(one.body, { ...credit, roundId: listed.body.data[2].roundId, currency: "ETB" })
    const foreign = await call(`${api}/transactions/${credit.transactionId}`, { headers: { "sv-api-key": other.key } })
    assert.strictEqual(foreign.status, 404)
    assert.strictEqual(foreign.body.code, "TRANSACTION_NOT_FOUND")
    const empty = await call(`${api}/rounds?from=${from}&to=${to}`, { headers: { "sv-api-key": other.key } })
    assert.strictEqual(empty.body.meta.totalElements, 0)
  }, 60_000)

  it("bounds every input: the period, limit, status and groupBy", async () => {
    const player = await playerSession(world.gw, world.wallet.url, "reports-bounds@example.com")
    const headers = { "sv-api-key": player.key }
    const api = `${world.gw.url}/api/v1.1/operator-api`
    for (const query of [
      "rounds?from=2025-01-01T00:00:00Z&to=2026-03-01T00:00:00Z",
      "rounds?from=2026-03-01T00:00:00Z&to=2026-03-01T00:00:00Z",
      "rounds?from=2026-03-01&to=2026-03-02T00:00:00Z",
      "rounds?from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z&limit=101",
      "rounds?from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z&status=won",
      `rounds?from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z&playerId=${"p".repeat(129)}`,
      "reports/summary?from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z&groupBy=month",
      "reports/summary?to=2026-03-02T00:00:00Z"
    ]) {
      const answer = await call(`${api}/${query}`, { headers })
      assert.strictEqual(answer.status, 400, query)
      assert.strictEqual(answer.body.code, "VALIDATION_FAILED", query)
    }
    const unauthorized = await call(`${api}/reports/summary?from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z`)
    assert.strictEqual(unauthorized.status, 401)
    const missing = await call(`${api}/transactions/not-a-transaction`, { headers })
    assert.strictEqual(missing.status, 404)
  })
})
