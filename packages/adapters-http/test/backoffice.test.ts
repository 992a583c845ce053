import { Backoffice, Merchant } from "@gateway/domain"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call } from "../testing/Client.ts"
import { start, type Started } from "./support.ts"

/** A signed-in user of merchant 7 with each role, its generated password already changed ("plain:" hashes: the in-memory secrets). */
const users: ReadonlyArray<Backoffice.UserWithSecrets> = Backoffice.Role.literals.map((role, i) => ({
  id: i + 1, merchantId: Merchant.MerchantId.make(7), email: `${role}@shop.example`, role, isDefaultPassword: false,
  verifiedEmail: true, totpEnabled: false, hasPassword: true, companyName: "Shop", passwordHash: "plain:long enough password",
  accountStatus: "active"
}))

const servers: Array<Started> = []
afterAll(() => Promise.all(servers.map((s) => s.dispose())))
const serve = async (httpsBaseUrl: boolean, trustProxy: boolean) => {
  const server = await start(undefined, { backoffice: { users, httpsBaseUrl, trustProxy } })
  servers.push(server)
  return server
}

const login = (url: string, email: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/api/v1.1/backoffice/login`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ email, password: "long enough password" })
  })

describe("the back office over HTTP, on the in-memory ports", () => {
  let plain: Started
  beforeAll(async () => {
    plain = await serve(false, false)
  })

  it("sets a Secure cookie only behind https: an https PUBLIC_BASE_URL, or a trusted proxy that says so", async () => {
    const proxied = await serve(false, true)
    const https = await serve(true, false)
    const cookie = async (url: string, headers: Record<string, string> = {}) => (await login(url, "owner@shop.example", headers)).headers.get("set-cookie") ?? ""
    expect(await cookie(plain.url)).not.toMatch(/Secure/)
    expect(await cookie(plain.url, { "x-forwarded-proto": "https" })).not.toMatch(/Secure/) // an untrusted client says so
    expect(await cookie(proxied.url)).not.toMatch(/Secure/)
    expect(await cookie(proxied.url, { "x-forwarded-proto": "https" })).toMatch(/Secure/)
    expect(await cookie(https.url)).toMatch(/; Secure/)
    expect(await cookie(https.url)).toMatch(/HttpOnly/)
  })

  it("lets only the owner manage users: every other role is 403 FORBIDDEN naming the permission", async () => {
    for (const user of users) {
      const signedIn = await login(plain.url, user.email)
      expect(signedIn.status).toBe(200)
      const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
      const list = await call(`${plain.url}/api/v1.1/backoffice/users`, { headers: { cookie } })
      if (user.role === "owner") expect(list.status).toBe(200)
      else expect([user.role, list.status, list.body.code, list.body.detail]).toEqual([user.role, 403, "FORBIDDEN", expect.stringContaining("users")])
    }
  })
})
