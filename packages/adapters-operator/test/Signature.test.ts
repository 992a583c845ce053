import { Redacted } from "effect"
import { createPublicKey, generateKeyPairSync, randomBytes, verify } from "node:crypto"
import { Webhook } from "standardwebhooks"
import { assert, describe, it } from "vitest"
import { prepare, signMessage } from "../src/webhooks/Signature.ts"

const pair = () =>
  generateKeyPairSync("ed25519", {
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" }
  })
const secret = () => `whsec_${randomBytes(32).toString("base64")}`

describe("signMessage during a rotation's overlap", () => {
  const [oldPair, newPair] = [pair(), pair()]
  const [oldSecret, newSecret] = [secret(), secret()]
  const untilMs = 1_800_000_010_000
  const keys = prepare({
    encryptionKey: Redacted.make(newSecret),
    privateKey: Redacted.make(newPair.privateKey),
    previousEncryptionKey: { value: Redacted.make(oldSecret), untilMs },
    previousPrivateKey: { value: Redacted.make(oldPair.privateKey), untilMs }
  })
  const body = JSON.stringify({ type: "webhook.test", data: {} })
  const check = (timestampSeconds: number, nowMs: number) => {
    const headers = signMessage(keys, "msg_1", timestampSeconds, body, nowMs)
    const content = Buffer.from(`msg_1.${timestampSeconds}.${body}`)
    const v1a = headers["webhook-signature"].split(" ").filter((s) => s.startsWith("v1a,"))
    // what standardwebhooks computes for the message with `key` (its verify also checks the age against the wall clock)
    const hmac = (key: string) =>
      headers["webhook-signature"].split(" ").includes(new Webhook(key).sign("msg_1", new Date(timestampSeconds * 1000), body))
    const ed = (publicKey: string) =>
      v1a.some((s) => verify(null, content, createPublicKey(publicKey), Buffer.from(s.slice(4), "base64")))
    return {
      count: headers["webhook-signature"].split(" ").length,
      first: headers["webhook-signature"].split(" ")[0] === new Webhook(newSecret).sign("msg_1", new Date(timestampSeconds * 1000), body),
      hmac: [hmac(oldSecret), hmac(newSecret)],
      ed25519: [ed(oldPair.publicKey), ed(newPair.publicKey)]
    }
  }

  it("signs with both secrets, the new one first, until the overlap ends, then with the new ones only", () => {
    assert.deepStrictEqual(check(1_800_000_009, untilMs - 1), {
      count: 4,
      first: true,
      hmac: [true, true],
      ed25519: [true, true]
    })
    assert.deepStrictEqual(check(1_800_000_010, untilMs), {
      count: 2,
      first: true,
      hmac: [false, true],
      ed25519: [false, true]
    })
  })
})
