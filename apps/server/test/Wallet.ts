import { json, type Received, startOperator } from "@gateway/adapters-operator/testing"
import { adminToken, call } from "@gateway/adapters-http/testing"
import { Effect, Exit, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll } from "vitest"
import { type Gateway, gateway } from "../testing/Gateway.ts"

/** What the fake wallet does with a message: answer it now, later, or not at all. */
export type WalletReply = (received: Received, body: WalletMessage) =>
  | { readonly status: number; readonly body?: unknown; readonly delayMs?: number; readonly headers?: Record<string, string> }
  | "hang"

/** A wallet webhook as the operator receives it. */
export interface WalletMessage {
  readonly type: string
  readonly timestamp: string
  readonly data: {
    readonly transactionId: string
    readonly refTransactionId?: string
    readonly roundId: string
    readonly roundClosed: boolean
    readonly amount: string
    readonly currency: string
    readonly playerId: string
    readonly shopId?: string
    readonly freeRound?: { readonly campaignId: string; readonly grantId: string }
  }
}

/** What the fake operator's shop Details URL does: answer now, or never. */
export type ShopReply = (shopId: unknown) => { readonly status: number; readonly body: unknown } | "hang"

/**
 * The operator's shops (CONTRACT §11) at /shops: `shop-1` active in ETB with a minimum stake of 2.00,
 * `shop-capped` active in ETB with a maximum stake of 20.00, `shop-usd` active in USD, `shop-blocked` blocked,
 * `shop-slow` never answers, any other unknown (404).
 */
export const shopAnswer: ShopReply = (shopId) =>
  shopId === "shop-capped" || shopId === "shop-usd"
    ? {
      status: 200,
      body: shopId === "shop-capped"
        ? { shopId, name: "Piazza Kiosk", currency: "ETB", status: "active", maximumStake: "20.00" }
        : { shopId, name: "Dollar Corner", currency: "USD", status: "active" }
    }
    : shopId === "shop-slow"
    ? "hang"
    : shopId === "shop-1" || shopId === "shop-blocked"
    ? {
      status: 200,
      body: {
        shopId,
        name: shopId === "shop-1" ? "Bole Road Shop" : "Closed Shop",
        currency: "ETB",
        status: shopId === "shop-1" ? "active" : "blocked",
        minimumStake: "2.00"
      }
    }
    : { status: 404, body: { error: "unknown shop" } }

/** A real operator on 127.0.0.1: Details URL at /details, the wallet at /wallet; `reply` decides wallet answers. */
export const startWallet = async (initial: WalletReply) => {
  let reply = initial
  let shops = shopAnswer
  let details = (body: { readonly playerId?: unknown }): Record<string, unknown> => ({
    playerId: body.playerId,
    currency: "ETB",
    balance: "1000.00"
  })
  const inFlight = new Map<string, number>()
  let overlaps = 0
  const operator = await startOperator((r, res) => {
    const body = JSON.parse(r.body || "{}")
    if (r.url === "/details") return json(res, 200, details(body))
    if (r.url === "/shops") {
      const shop = shops(body.shopId)
      return shop === "hang" ? undefined : json(res, shop.status, shop.body)
    }
    const id = String(r.headers["webhook-id"])
    const now = (inFlight.get(id) ?? 0) + 1
    if (now > 1) overlaps++
    inFlight.set(id, now)
    const done = () => inFlight.set(id, (inFlight.get(id) ?? 1) - 1)
    const answer = reply(r, body)
    if (answer === "hang") return void res.on("close", done)
    setTimeout(() => {
      done()
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers })
      res.end(JSON.stringify(answer.body ?? { balance: "1000.00" }))
    }, answer.delayMs ?? 0)
  })
  const messages = () =>
    operator.received.filter((r) => r.url === "/wallet").map((r) => ({ headers: r.headers, body: JSON.parse(r.body) as WalletMessage }))
  return {
    ...operator,
    messages,
    overlaps: () => overlaps,
    setReply: (next: WalletReply) => {
      reply = next
    },
    /** What the shop Details URL answers from now on (by default {@link shopAnswer}). */
    setShops: (next: ShopReply) => {
      shops = next
    },
    /** What the Details URL answers from now on (by default the player in ETB with 1000.00). */
    setDetails: (next: typeof details) => {
      details = next
    }
  }
}

/** A merchant whose Details URL and single webhook URL point at `operatorUrl`, and a real-mode session for it. */
export const playerSession = async (
  gw: Gateway,
  operatorUrl: string,
  email: string,
  mode: "real" | "demo" = "real",
  launchQuery = "",
  settings: Record<string, unknown> = {}
) => {
  const admin = { authorization: `Bearer ${await adminToken(gw.authSecret)}` }
  const api = `${gw.url}/api/v1.1/operator-api`
  const merchant = await call(`${api}/create`, {
    method: "POST", headers: admin, json: { countryCodes: ["ET"], companyName: "Wallet Co", email, providerId: 1 }
  })
  await call(`${api}/merchants/${merchant.body.id}/settings`, {
    method: "PUT", headers: admin,
    json: {
      userDetailsUrl: `${operatorUrl}/details`,
      webhookUrl: `${operatorUrl}/wallet`,
      minimumStake: 1,
      maximumStake: 500,
      ...settings
    }
  })
  const key = (await call(`${api}/merchants/${merchant.body.id}/api-keys`, { method: "POST", headers: admin })).body.apiKey
  /** A launch URL's token (not redeemed), of player `p-1` and operator session `s-<email>` unless told. */
  const launch = async (playerId = "p-1", sessionId = `s-${email}`) => {
    const launched = await call(`${api}/games/generate-launch-url?gameId=odd-even&playerId=${playerId}&sessionId=${sessionId}&mode=${mode}${launchQuery}`, {
      headers: { "sv-api-key": key }
    })
    return new URL(launched.body.url).searchParams.get("token") ?? ""
  }
  const newSession = async (playerId?: string, sessionId?: string) => {
    const token = await launch(playerId, sessionId)
    const opened = await call(`${gw.url}/api/v1.1/game-api/sessions`, { method: "POST", json: { token } })
    return { token, opened, sessionToken: String(opened.body?.sessionToken) }
  }
  const bet = (sessionToken: string, stake = "10.00", selection = "odd") =>
    call(`${gw.url}/api/v1.1/game-api/rounds`, {
      method: "POST", headers: { authorization: `Bearer ${sessionToken}` }, json: { stake, selection }
    })
  return {
    merchantId: Number(merchant.body.id),
    encryptionKey: String(merchant.body.encryptionKey),
    key: String(key),
    admin,
    api,
    launch,
    newSession,
    bet
  }
}

/** Polls until `check` holds or `ms` pass. */
export const eventually = async (check: () => boolean, ms = 15_000) => {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time")
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Reads until `done` holds for the answer, or fails after `ms`. */
export const poll = async <A>(read: () => Promise<A>, done: (a: A) => boolean, ms = 20_000): Promise<A> => {
  const deadline = Date.now() + ms
  for (;;) {
    const answer = await read()
    if (done(answer)) return answer
    if (Date.now() > deadline) throw new Error("condition not met in time")
    await new Promise((r) => setTimeout(r, 100))
  }
}

/**
 * For a test file: a real operator wallet answering `reply` and a gateway process whose webhooks time out after
 * 0.5 s and retry every 0.2 s (and `env`), started before the file's tests and closed after them. Read them from the result
 * inside tests (`world.gw`, `world.wallet`).
 */
export const walletAndGateway = (reply: WalletReply = () => ({ status: 200 }), env: Record<string, string> = {}) => {
  const scope = Effect.runSync(Scope.make())
  const world = {} as { gw: Gateway; wallet: Awaited<ReturnType<typeof startWallet>> }
  beforeAll(async () => {
    world.wallet = await startWallet(reply)
    world.gw = await Effect.runPromise(Scope.provide(scope)(gateway({
      WEBHOOK_TIMEOUT_MS: "500",
      WEBHOOK_RETRY_SCHEDULE: "0.2,0.2,0.2,0.2",
      DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      ...env
    })))
  })
  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await world.wallet.close()
  })
  return world
}
