import { adminToken, call } from "@gateway/adapters-http/testing"
import { assert, describe, it } from "vitest"
import { playerSession, walletAndGateway } from "./Wallet.ts"

const world = walletAndGateway()

/** Minor units of a decimal string of two minor digits (ETB), either sign. */
const minor = (amount: string) => BigInt(amount.replace(".", ""))

const shares = {
  providerPercentProfit: 33.3,
  superProviderPercentProfit: 10,
  agentPercentProfit: 12.5,
  merchantPercentProfit: 20,
  userPercentProfit: 0.01
}
const parties = [
  ["provider", "providerPercentProfit", "33.3", 333n, 1000n],
  ["superProvider", "superProviderPercentProfit", "10", 10n, 100n],
  ["agent", "agentPercentProfit", "12.5", 125n, 1000n],
  ["merchant", "merchantPercentProfit", "20", 20n, 100n],
  ["user", "userPercentProfit", "0.01", 1n, 10000n]
] as const

describe("revenue share, served by the real server process", () => {
  it("splits the GGR of real rounds exactly as the summary and the wallet saw it", async () => {
    const from = new Date(Date.now() - 60_000).toISOString()
    const player = await playerSession(world.gw, world.wallet.url, "revenue-share@example.com")
    const set = await call(`${player.api}/merchants/${player.merchantId}/settings`, {
      method: "PUT", headers: player.admin, json: shares
    })
    assert.strictEqual(set.status, 200, set.text)
    const { sessionToken } = await player.newSession()
    for (const [i, stake] of ["1.01", "3.33", "10.00", "499.99", "7.77", "2.50", "123.45", "1.00"].entries()) {
      const round = await player.bet(sessionToken, stake, i % 2 === 0 ? "odd" : "even")
      assert.strictEqual(round.status, 200, round.text)
    }
    const to = new Date(Date.now() + 60_000).toISOString()
    const period = `from=${from}&to=${to}`

    const summary = await call(`${player.api}/reports/summary?${period}`, { headers: { "sv-api-key": player.key } })
    assert.strictEqual(summary.status, 200, summary.text)
    const reader = { authorization: `Bearer ${await adminToken(world.gw.authSecret, "read:users")}` }
    const report = await call(`${player.api}/merchants/${player.merchantId}/revenue-share?${period}`, { headers: reader })
    assert.strictEqual(report.status, 200, report.text)
    assert.strictEqual(report.body.ggr, summary.body.total.ggr)
    assert.deepStrictEqual(
      [report.body.merchantId, report.body.currency, report.body.capped, report.body.from, report.body.to],
      [player.merchantId, "ETB", false, new Date(from).toISOString(), new Date(to).toISOString()]
    )

    // The GGR is what the operator's wallet accepted: debits − credits − refunds.
    const rounds = await call(`${player.api}/rounds?${period}&limit=100`, { headers: { "sv-api-key": player.key } })
    const roundIds = new Set(rounds.body.data.map((r: { roundId: string }) => r.roundId))
    assert.strictEqual(roundIds.size, 8)
    const sent = world.wallet.messages().filter((m) => roundIds.has(m.body.data.roundId))
    const signed: Record<string, bigint> = { "transaction.debit": 1n, "transaction.credit": -1n, "transaction.refund": -1n }
    const walletGgr = sent.reduce((acc, m) => acc + (signed[m.body.type] ?? 0n) * minor(m.body.data.amount), 0n)
    const ggr = minor(report.body.ggr)
    assert.strictEqual(ggr, walletGgr)

    const parts: Array<{ party: string; setting: string; percent: string; amount: string }> = report.body.parts
    assert.deepStrictEqual(parts.map((p) => [p.party, p.setting, p.percent]), parties.map(([party, setting, percent]) => [party, setting, percent]))
    for (const [i, [, , , numerator, denominator]] of parties.entries()) {
      const exact = ggr * numerator
      const truncated = exact / denominator // bigint division rounds toward zero
      assert.strictEqual(minor(parts[i]?.amount ?? ""), truncated, parts[i]?.party)
    }
    const total = parts.reduce((acc, p) => acc + minor(p.amount), 0n) + minor(report.body.remainder)
    assert.strictEqual(total, ggr)

    const list = await call(`${player.api}/revenue-share?${period}&search=revenue-share@example.com`, { headers: reader })
    assert.strictEqual(list.status, 200, list.text)
    assert.deepStrictEqual(list.body.data, [report.body])
    assert.deepStrictEqual(list.body.meta, { currentPage: 1, limit: 20, nextPage: 0, prevPage: 0, totalElements: 1, totalPage: 1 })
  }, 60_000)

  it("refuses shares over 100, naming them, and keeps the old ones", async () => {
    const player = await playerSession(world.gw, world.wallet.url, "revenue-share-over@example.com")
    const settingsUrl = `${player.api}/merchants/${player.merchantId}/settings`
    assert.strictEqual((await call(settingsUrl, { method: "PUT", headers: player.admin, json: shares })).status, 200)
    const over = await call(settingsUrl, { method: "PUT", headers: player.admin, json: { userPercentProfit: 24.21 } })
    assert.strictEqual(over.status, 400, over.text)
    assert.strictEqual(over.body.code, "VALIDATION_FAILED")
    for (const field of Object.keys(shares)) assert.include(over.body.detail, field)
    assert.include(over.body.detail, "100.01")
    const merchant = await call(`${player.api}/merchants/${player.merchantId}`, { headers: player.admin })
    assert.deepStrictEqual(
      [merchant.body.MerchantSettings.userPercentProfit, merchant.body.MerchantSettings.providerPercentProfit],
      [0.01, 33.3]
    )
    // 0.2 + 83.9 + 15.9 is 100 in decimal, 100.00000000000001 in floating point: the sum is compared exactly.
    const hundred = { providerPercentProfit: 0.2, superProviderPercentProfit: 83.9, agentPercentProfit: 15.9, merchantPercentProfit: null, userPercentProfit: null }
    const exact = await call(settingsUrl, { method: "PUT", headers: player.admin, json: hundred })
    assert.strictEqual(exact.status, 200, exact.text)
    const report = await call(`${player.api}/merchants/${player.merchantId}/revenue-share?from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z`, {
      headers: player.admin
    })
    assert.deepStrictEqual(report.body.parts.map((p: { percent: string }) => p.percent), ["0.2", "83.9", "15.9", "0", "0"])
  })

  it("lets only the provider's admins set the shares: the operator's own key reads them and is refused 403", async () => {
    const player = await playerSession(world.gw, world.wallet.url, "revenue-share-own@example.com")
    const adminUrl = `${player.api}/merchants/${player.merchantId}/settings`
    const ownUrl = `${player.api}/settings`
    const operator = { "sv-api-key": player.key }
    assert.strictEqual((await call(adminUrl, { method: "PUT", headers: player.admin, json: shares })).status, 200)
    const before = await call(ownUrl, { headers: operator })
    assert.strictEqual(before.status, 200, before.text)
    assert.strictEqual(before.body.providerPercentProfit, 33.3, "the operator reads its shares")

    // Lowering the provider's share (or clearing it) just before a report is refused, each share by name,
    // even alongside a change the operator may make, which is then not saved either.
    for (const [field] of Object.entries(shares)) {
      for (const value of [0, null]) {
        const refused = await call(ownUrl, {
          method: "PUT", headers: operator, json: { hideBalance: true, [field]: value }
        })
        assert.strictEqual(refused.status, 403, `${field}: ${value} ${refused.text}`)
        assert.strictEqual(refused.body.code, "FORBIDDEN")
        assert.include(refused.body.detail, field)
      }
    }
    const after = await call(ownUrl, { headers: operator })
    assert.deepStrictEqual(after.body, before.body, "nothing changed")
    const period = "from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z"
    const report = await call(`${player.api}/merchants/${player.merchantId}/revenue-share?${period}`, { headers: player.admin })
    assert.deepStrictEqual(report.body.parts.map((p: { percent: string }) => p.percent), ["33.3", "10", "12.5", "20", "0.01"])

    // Other settings stay the operator's own; the admin's bearer still sets the shares.
    const own = await call(ownUrl, { method: "PUT", headers: operator, json: { hideBalance: true } })
    assert.strictEqual(own.status, 200, own.text)
    assert.strictEqual(own.body.hideBalance, true)
    const lowered = await call(adminUrl, { method: "PUT", headers: player.admin, json: { providerPercentProfit: 0 } })
    assert.strictEqual(lowered.status, 200, lowered.text)
    const read = await call(ownUrl, { headers: operator })
    assert.deepStrictEqual([read.body.providerPercentProfit, read.body.hideBalance], [0, true])
  })

  it("needs a bearer token with read:users, knows the merchant and bounds the period", async () => {
    const player = await playerSession(world.gw, world.wallet.url, "revenue-share-auth@example.com")
    const period = "from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z"
    const one = `${player.api}/merchants/${player.merchantId}/revenue-share?${period}`
    const all = `${player.api}/revenue-share?${period}`
    const writer = { authorization: `Bearer ${await adminToken(world.gw.authSecret, "write:users")}` }
    for (const url of [one, all]) {
      assert.strictEqual((await call(url)).status, 401, url)
      assert.strictEqual((await call(url, { headers: { "sv-api-key": player.key } })).status, 401, url)
      const forbidden = await call(url, { headers: writer })
      assert.strictEqual(forbidden.status, 403, url)
      assert.strictEqual(forbidden.body.code, "FORBIDDEN")
    }
    const empty = await call(one, { headers: player.admin })
    assert.strictEqual(empty.status, 200, empty.text)
    assert.deepStrictEqual([empty.body.ggr, empty.body.remainder], ["0.00", "0.00"])
    assert.isTrue(empty.body.parts.every((p: { amount: string; percent: string }) => p.amount === "0.00" && p.percent === "0"))
    const missing = await call(`${player.api}/merchants/999999999/revenue-share?${period}`, { headers: player.admin })
    assert.strictEqual(missing.status, 404)
    assert.strictEqual(missing.body.code, "MERCHANT_NOT_FOUND")
    for (const query of [
      "from=2025-01-01T00:00:00Z&to=2026-03-01T00:00:00Z",
      "from=2026-03-01T00:00:00Z&to=2026-03-01T00:00:00Z",
      "to=2026-03-02T00:00:00Z",
      "from=2026-03-01&to=2026-03-02T00:00:00Z"
    ]) {
      for (const base of [`${player.api}/merchants/${player.merchantId}/revenue-share`, `${player.api}/revenue-share`]) {
        const bad = await call(`${base}?${query}`, { headers: player.admin })
        assert.strictEqual(bad.status, 400, `${base}?${query}`)
        assert.strictEqual(bad.body.code, "VALIDATION_FAILED")
      }
    }
    const badLimit = await call(`${all}&limit=101`, { headers: player.admin })
    assert.strictEqual(badLimit.status, 400)
  })
})
