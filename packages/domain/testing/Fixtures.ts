import { DateTime, Effect, Exit } from "effect"
import type { CurrencyCode } from "../src/Currency.ts"
import { Game } from "../src/Game.ts"
import { LaunchClaims } from "../src/LaunchToken.ts"
import { Merchant, MerchantId } from "../src/Merchant.ts"
import { MerchantSettings, type SettingsValues } from "../src/MerchantSettings.ts"
import { type DetailsRequest, PlayerDetails } from "../src/Player.ts"

/** The instant every fixture was created at. */
export const epoch = DateTime.makeUnsafe("2026-11-21T22:00:00.000Z")

/** Settings with these values (ids and timestamps filled in). */
export const makeSettings = (values: SettingsValues = {}) =>
  new MerchantSettings({ id: 1, createdAt: epoch, updatedAt: epoch, ...values })

/** An active ETB merchant, id 7, with empty settings unless overridden. */
export const makeMerchant = (overrides: Partial<Merchant> = {}): Merchant =>
  new Merchant({
    id: MerchantId.make(7),
    createdAt: epoch,
    updatedAt: epoch,
    email: "ops@example.com",
    accountStatus: "active",
    clientId: "6f1c0c1e-8a5e-4a57-9e0c-3d1e2f3a4b5c",
    hashedClientId: "00",
    companyName: "Example Bet",
    country: "ET",
    currency: "ETB",
    phoneNumber: "",
    providerId: 1,
    publicKey: "-----BEGIN PUBLIC KEY-----",
    MerchantSettings: makeSettings(),
    isDefaultPassword: true,
    verifiedEmail: false,
    ...overrides
  })

/** Merchant 7 with these settings. */
export const merchantWith = (settings: SettingsValues): Merchant => makeMerchant({ MerchantSettings: makeSettings(settings) })

/** The odd-even game as an external catalogue would list it. */
export const oddEven = new Game({
  id: "odd-even",
  name: "Odd Even",
  releaseDate: "2024-01-01",
  baseLaunchUrl: "https://games.example/play/odd-even",
  category: 1,
  imageUrl: "https://games.example/odd-even.png"
})

/** A Details answer: the asked player in `currency` with 100.00, optionally `status`. */
export const player = (currency: CurrencyCode | string, status?: "active" | "blocked") => (request: DetailsRequest) =>
  Effect.succeed(
    new PlayerDetails({ playerId: request.playerId, currency, balance: "100.00", ...(status ? { status } : {}) })
  )

let claimsMade = 0

/**
 * Launch claims valid for a minute from now — odd-even in real mode, ETB,
 * merchant 7, the default issuer, a jti never given before in this process —
 * with any field overridden.
 */
export const makeClaims = (overrides: Partial<LaunchClaims> = {}): LaunchClaims => {
  const now = Math.floor(Date.now() / 1000)
  return new LaunchClaims({
    iss: "operator-gateway",
    aud: "launch",
    sub: "p-1",
    jti: `00000000-0000-4000-b000-${String(++claimsMade).padStart(12, "0")}`,
    iat: now,
    exp: now + 60,
    mid: MerchantId.make(7),
    gid: "odd-even",
    sid: "s-1",
    mode: "real",
    cur: "ETB",
    lobby: true,
    ...overrides
  })
}

/** The `_tag` of an exit's expected error, `"success"`, or `"defect"`: what a use case answered, in one word. */
export const errorTag = (exit: Exit.Exit<unknown, { readonly _tag: string }>): string =>
  Exit.isSuccess(exit) ? "success" : Exit.findErrorOption(exit).pipe((o) => (o._tag === "Some" ? o.value._tag : "defect"))
