import { adminToken, call } from "@gateway/adapters-http/testing"
import { LaunchKeys } from "@gateway/adapters-operator"
import { DataCipher } from "@gateway/adapters-pg"
import * as PgTest from "@gateway/adapters-pg/testing"
import { Effect, Exit, Redacted, Scope } from "effect"
import { decodeProtectedHeader, jwtVerify } from "jose"
import { generateKeyPairSync, randomBytes } from "node:crypto"
import pg from "pg"
import { Webhook } from "standardwebhooks"
import { afterAll, assert, describe, it } from "vitest"
import { runCli } from "../testing/Cli.ts"
import { runToExit, spawnGateway } from "../testing/Gateway.ts"
import { eventually, playerSession, startWallet } from "./Wallet.ts"

const scope = Effect.runSync(Scope.make())
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const freshDatabase = () => Effect.runPromise(Scope.provide(scope)(PgTest.scopedMigratedDatabaseUrl)).then(Redacted.value)
const secret = () => randomBytes(32).toString("base64url")

/** The status of an admin read with `token`. */
const merchantsWith = (url: string, token: string) =>
  call(`${url}/api/v1.1/operator-api/merchants`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status)

/** Runs `check` against a gateway started with `env`, then stops it. */
const withGateway = async (env: Record<string, string>, check: (url: string) => Promise<void>) => {
  const gw = await spawnGateway(env)
  try {
    await check(gw.url)
  } finally {
    await gw.stop("SIGKILL")
  }
}

describe("rotating AUTH_JWT_SECRET", () => {
  it("with `new,old` tokens of both are accepted and new ones are signed with the first; once `old` is removed its tokens are refused", async () => {
    const [older, newer] = [secret(), secret()]
    const base = { DATABASE_URL: await freshDatabase(), DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64") }
    const oldToken = await adminToken(older)

    const during = { ...base, AUTH_JWT_SECRET: `${newer}, ${older}` }
    const issued = await runCli(["token", "issue", "--scope", "read:users"], during)
    assert.strictEqual(issued.code, 0, issued.stderr)
    const newToken = issued.stdout.trim()
    const key = (text: string) => new TextEncoder().encode(text)
    assert.isDefined((await jwtVerify(newToken, key(newer))).payload.exp, "signed with the first secret")
    assert.strictEqual(await jwtVerify(newToken, key(older)).then(() => "verified", () => "refused"), "refused")

    await withGateway(during, async (url) => {
      assert.strictEqual(await merchantsWith(url, oldToken), 200, "a token of the old secret, still listed")
      assert.strictEqual(await merchantsWith(url, newToken), 200)
      assert.strictEqual(await merchantsWith(url, await adminToken(secret())), 401, "a secret never listed")
    })

    await withGateway({ ...base, AUTH_JWT_SECRET: newer }, async (url) => {
      assert.strictEqual(await merchantsWith(url, oldToken), 401, "the old secret is no longer listed")
      assert.strictEqual(await merchantsWith(url, newToken), 200)
    })

    const bad = await runToExit({ ...base, AUTH_JWT_SECRET: `${newer},too-short-a-secret` })
    assert.notStrictEqual(bad.code, 0)
    assert.match(bad.output.trim(), /^gateway: cannot start: .*AUTH_JWT_SECRET.*each comma-separated secret must be at least 32 characters/)
    assert.notInclude(bad.output, "too-short-a-secret")
    assert.notInclude(bad.output, newer)
  })
})

const query = async (url: string, text: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(text)).rows
  } finally {
    await client.end()
  }
}

/** Every secret stored at rest in the database at `url`. */
const storedSecrets = async (url: string): Promise<ReadonlyArray<string>> => [
  ...(await query(url, "SELECT private_key_enc, encryption_key_enc FROM merchants")).flatMap((r) => [
    String(r.private_key_enc),
    String(r.encryption_key_enc)
  ]),
  ...(await query(url, "SELECT private_key_enc FROM launch_signing_keys")).map((r) => String(r.private_key_enc))
]

/** Whether `stored` opens under `key` alone (base64). */
const opensWith = (key: string, stored: string) =>
  Effect.runPromise(
    DataCipher.make(Redacted.make(Buffer.from(key, "base64"))).decrypt(stored).pipe(
      Effect.match({ onFailure: () => false, onSuccess: () => true })
    )
  )

describe("rotating DATA_ENCRYPTION_KEY", () => {
  it("with `new,old` the merchants' secrets written under the old key still work and new ones are written under the new key; `secrets reencrypt` moves them all, after which the old key is not needed", async () => {
    const url = await freshDatabase()
    const [older, newer] = [randomBytes(32).toString("base64"), randomBytes(32).toString("base64")]
    const auth = secret()
    const env = (keys: string) => ({
      DATABASE_URL: url,
      DATA_ENCRYPTION_KEY: keys,
      AUTH_JWT_SECRET: auth,
      ALLOW_PRIVATE_OPERATOR_URLS: "true"
    })
    const wallet = await startWallet(() => ({ status: 200 }))

    /** A real-money round of the merchant with API key `key` on the gateway at `gw`; its wallet messages verify with the merchant's key. */
    const round = async (gw: string, player: { readonly key: string; readonly encryptionKey: string }) => {
      const launched = await call(
        `${gw}/api/v1.1/operator-api/games/generate-launch-url?gameId=odd-even&playerId=p-1&sessionId=s-${randomBytes(4).toString("hex")}&mode=real`,
        { headers: { "sv-api-key": player.key } }
      )
      assert.strictEqual(launched.status, 200, launched.text)
      const token = new URL(launched.body.url).searchParams.get("token")
      const opened = await call(`${gw}/api/v1.1/game-api/sessions`, { method: "POST", json: { token } })
      assert.strictEqual(opened.status, 201, opened.text)
      const bet = await call(`${gw}/api/v1.1/game-api/rounds`, {
        method: "POST",
        headers: { authorization: `Bearer ${opened.body.sessionToken}` },
        json: { stake: "10.00", selection: "odd" }
      })
      assert.strictEqual(bet.status, 200, bet.text)
      const messages = () =>
        wallet.received.filter((r) => r.url === "/wallet" && JSON.parse(r.body).data.roundId === bet.body.roundId)
      await eventually(() => messages().length === 2)
      for (const r of messages()) {
        new Webhook(player.encryptionKey).verify(r.body, {
          "webhook-id": String(r.headers["webhook-id"]),
          "webhook-timestamp": String(r.headers["webhook-timestamp"]),
          "webhook-signature": String(r.headers["webhook-signature"])
        })
      }
    }

    try {
      const underOld = await spawnGateway(env(older))
      const first = await playerSession(underOld, wallet.url, "first@example.com")
      await underOld.stop("SIGTERM")
      const [launchKey] = await query(url, "SELECT kid FROM launch_signing_keys")

      const during = await spawnGateway(env(`${newer},${older}`))
      const second = await playerSession(during, wallet.url, "second@example.com")
      await round(during.url, first)
      await round(during.url, second)
      const [firstRow, secondRow] = await query(url, "SELECT private_key_enc FROM merchants ORDER BY id")
      assert.isTrue(await opensWith(older, String(firstRow?.private_key_enc)))
      assert.isTrue(await opensWith(newer, String(secondRow?.private_key_enc)), "a new write uses the first key")
      assert.isFalse(await opensWith(older, String(secondRow?.private_key_enc)))

      const reencrypted = await runCli(["secrets", "reencrypt"], env(`${newer},${older}`))
      assert.strictEqual(reencrypted.code, 0, reencrypted.stderr)
      assert.include(reencrypted.stdout, "the secrets of 2 merchants and 1 launch signing keys")
      const stored = await storedSecrets(url)
      assert.lengthOf(stored, 5)
      for (const text of stored) {
        assert.isTrue(await opensWith(newer, text), "every secret opens under the new key alone")
        assert.isFalse(await opensWith(older, text))
      }
      await round(during.url, first)
      await during.stop("SIGTERM")

      const underNew = await spawnGateway(env(newer))
      try {
        await round(underNew.url, first)
        await round(underNew.url, second)
        const jwks = await call(`${underNew.url}/.well-known/jwks.json`)
        assert.deepStrictEqual(jwks.body.keys.map((k: { kid: string }) => k.kid), [launchKey?.kid], "the same launch key")
      } finally {
        await underNew.stop("SIGKILL")
      }

      const oldAlone = await runCli(["secrets", "reencrypt"], env(older))
      assert.notStrictEqual(oldAlone.code, 0)
      assert.include(oldAlone.stderr, `cannot open merchant ${first.merchantId}'s secrets with any key of DATA_ENCRYPTION_KEY`)
      assert.notInclude(oldAlone.stderr + oldAlone.stdout, older)
    } finally {
      await wallet.close()
    }
  })
})

/** A launch token of the merchant with API key `key` from the gateway at `gw`. */
const launch = async (gw: string, key: string) => {
  const launched = await call(
    `${gw}/api/v1.1/operator-api/games/generate-launch-url?gameId=odd-even&playerId=p-1&sessionId=s-${randomBytes(4).toString("hex")}&mode=real`,
    { headers: { "sv-api-key": key } }
  )
  assert.strictEqual(launched.status, 200, launched.text)
  return new URL(launched.body.url).searchParams.get("token") ?? ""
}

/** The status of opening a game session with a launch token. */
const open = (gw: string, token: string) =>
  call(`${gw}/api/v1.1/game-api/sessions`, { method: "POST", json: { token } }).then((r) => r.status)

const publishedKids = async (gw: string): Promise<ReadonlyArray<string>> =>
  (await call(`${gw}/.well-known/jwks.json`)).body.keys.map((k: { kid: string }) => k.kid)

describe("rotating the launch signing keys", () => {
  it("stored in the database: after POST launch-keys/rotate both keys are published and a launch link of the old key still opens; once unpublished, its page still resumes", async () => {
    const wallet = await startWallet(() => ({ status: 200 }))
    const url = await freshDatabase()
    // One public URL (the links' issuer) for the gateway and the one started again on another port.
    const gatewayEnv = {
      DATABASE_URL: url,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      ALLOW_PRIVATE_OPERATOR_URLS: "true",
      PUBLIC_BASE_URL: "http://games.gateway.test"
    }
    let gw = await spawnGateway(gatewayEnv)
    try {
      const player = await playerSession(gw, wallet.url, "launch@example.com")
      const before = await launch(gw.url, player.key)
      const [oldKid] = await publishedKids(gw.url)
      assert.strictEqual(decodeProtectedHeader(before).kid, oldKid)
      const rotated = await call(`${gw.url}/api/v1.1/operator-api/launch-keys/rotate`, { method: "POST", headers: player.admin })
      assert.strictEqual(rotated.status, 200, rotated.text)
      assert.notStrictEqual(rotated.body.kid, oldKid)
      assert.sameMembers([...await publishedKids(gw.url)], [rotated.body.kid, oldKid])
      const opened = await call(`${gw.url}/api/v1.1/game-api/sessions`, { method: "POST", json: { token: before } })
      assert.strictEqual(opened.status, 201, `a link signed with the retired key: ${opened.text}`)

      // An hour later the old key is no longer published, and the casino's page reloads around the game's frame:
      // the page's link (signed with the old key, long expired) and its resume cookie still resume the session.
      // (On a gateway started again, whose verifier has not kept the keys of an hour ago.)
      await query(url, "UPDATE launch_signing_keys SET retired_at = now() - interval '1 hour' WHERE retired_at IS NOT NULL")
      await gw.stop("SIGTERM")
      gw = await spawnGateway(gatewayEnv)
      assert.deepStrictEqual([...await publishedKids(gw.url)], [rotated.body.kid])
      const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
      const resumed = await call(`${gw.url}/api/v1.1/game-api/sessions/resume`, { method: "POST", headers: { cookie }, json: { token: before } })
      assert.strictEqual(resumed.status, 200, resumed.text)
      assert.strictEqual(resumed.body.sessionToken, opened.body.sessionToken)
      // Redeemed, it opens nothing: its key no longer signs a live link. Past the resume window the old key verifies
      // nothing at all (LaunchKeyStorePg.test.ts).
      assert.strictEqual(await open(gw.url, before), 401, "redeeming it again")
    } finally {
      await gw.stop("SIGKILL")
      await wallet.close()
    }
  })

  it("from LAUNCH_SIGNING_KEY: with the new PEM block followed by the old one both are published and the new one signs; without the old one its links are refused", async () => {
    const pem = () => generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString()
    const [older, newer] = [pem(), pem()]
    const kid = (text: string) => Effect.runPromise(LaunchKeys.fromPem(Redacted.make(text))).then((k) => k.kid)
    const [oldKid, newKid] = [await kid(older), await kid(newer)]
    const wallet = await startWallet(() => ({ status: 200 }))
    const base = {
      DATABASE_URL: await freshDatabase(),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      AUTH_JWT_SECRET: secret(),
      ALLOW_PRIVATE_OPERATOR_URLS: "true",
      LAUNCH_TOKEN_TTL_SECONDS: "600",
      PUBLIC_BASE_URL: "https://games.example"
    }
    try {
      const first = await spawnGateway({ ...base, LAUNCH_SIGNING_KEY: older })
      const player = await playerSession(first, wallet.url, "fixed@example.com")
      const oldLinks = [await launch(first.url, player.key), await launch(first.url, player.key)]
      assert.deepStrictEqual([...await publishedKids(first.url)], [oldKid])
      await first.stop("SIGTERM")

      await withGateway({ ...base, LAUNCH_SIGNING_KEY: `${newer}\n${older}` }, async (url) => {
        assert.deepStrictEqual([...await publishedKids(url)], [newKid, oldKid])
        assert.strictEqual(decodeProtectedHeader(await launch(url, player.key)).kid, newKid)
        assert.strictEqual(await open(url, oldLinks[0] ?? ""), 201, "a link of the old key, still published")
      })

      await withGateway({ ...base, LAUNCH_SIGNING_KEY: newer }, async (url) => {
        assert.deepStrictEqual([...await publishedKids(url)], [newKid])
        assert.strictEqual(await open(url, oldLinks[1] ?? ""), 401, "the old key is gone")
        assert.strictEqual(await open(url, await launch(url, player.key)), 201)
      })

      const bad = await runToExit({ ...base, LAUNCH_SIGNING_KEY: `${newer}\n-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----` })
      assert.notStrictEqual(bad.code, 0)
      assert.match(bad.output.trim(), /^gateway: cannot start: LAUNCH_SIGNING_KEY: key 2 of 2: not a PKCS#8 PEM private key$/)
    } finally {
      await wallet.close()
    }
  })
})
