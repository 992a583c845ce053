import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { cliActor } from "../src/Audit.ts"
import { MerchantId } from "../src/Merchant.ts"
import { AuditLog } from "../src/ports/AuditLog.ts"
import { changeSettingsAudited, changeStatusAudited } from "../src/usecases/AuditedChanges.ts"
import { revealSecret, rotateSecret } from "../src/usecases/RotateSecret.ts"
import * as D from "../testing/index.ts"

const id = MerchantId.make(7)
const alice = { who: "alice", address: "203.0.113.7" }

const setUp = () => {
  const audit = D.makeAuditLog()
  const layer = Layer.mergeAll(
    D.merchantRepo([D.makeMerchant({ MerchantSettings: D.makeSettings({ oddEvenGameProfit: 96 }) })]),
    D.anyOperatorUrl,
    D.fixedCredentials,
    Layer.succeed(AuditLog, audit.service)
  )
  return { entries: audit.entries, layer }
}

describe("audited changes", () => {
  it.effect("record only the touched fields, nothing for a change that changes nothing or is refused", () =>
    Effect.gen(function*() {
      const { entries, layer } = setUp()
      yield* Effect.gen(function*() {
        yield* changeSettingsAudited(id, { oddEvenGameProfit: 97, webhookUrl: "https://ops.example/wallet" }, alice)
        yield* changeSettingsAudited(id, { oddEvenGameProfit: 97 }, alice)
        yield* changeSettingsAudited(id, { lottoGameProfit: 4 }, alice)
        yield* changeStatusAudited(id, "active", alice)
        yield* changeStatusAudited(id, "closed", cliActor)
        assert.isTrue(Exit.isFailure(yield* Effect.exit(changeStatusAudited(id, "active", alice))))
      }).pipe(Effect.provide(layer))
      assert.deepStrictEqual(entries().map((e) => [e.action, e.actor, e.address, e.before, e.after]), [
        ["merchant.settings", "alice", "203.0.113.7", { oddEvenGameProfit: 96, webhookUrl: null }, {
          oddEvenGameProfit: 97,
          webhookUrl: "https://ops.example/wallet"
        }],
        // A house edge moved shows the RTP in force before and after it (unset: the default, 97.50 %); the
        // change of 96 to 97 above plays clamped to the maximum edge both times, so its RTP did not move.
        ["merchant.settings", "alice", "203.0.113.7", { lottoGameProfit: null, lottoGameRtp: "97.50" }, {
          lottoGameProfit: 4,
          lottoGameRtp: "96.00"
        }],
        ["merchant.status", "cli", null, { accountStatus: "active" }, { accountStatus: "closed" }]
      ])
    }))

  it.effect("a rotation and a reveal name the secret and never show a value", () =>
    Effect.gen(function*() {
      const { entries, layer } = setUp()
      const [rotated, signing, revealed] = yield* Effect.all([
        rotateSecret(id, { secret: "encryptionKey", overlapSeconds: 60 }, alice),
        rotateSecret(id, { secret: "signingKey" }, alice),
        revealSecret(id, alice)
      ]).pipe(Effect.provide(layer))
      assert.strictEqual(rotated.encryptionKey, "whsec_BBBB")
      assert.strictEqual(revealed.encryptionKey, "whsec_BBBB")
      assert.strictEqual(signing.publicKey, "-----BEGIN PUBLIC KEY----- 2")
      assert.deepStrictEqual(entries().map((e) => [e.action, e.after?.["encryptionKey"] ?? e.after?.["signingKey"]]), [
        ["secret.rotate", "rotated"],
        ["secret.rotate", "rotated"],
        ["secret.reveal", "revealed"]
      ])
      assert.deepStrictEqual(entries()[1]?.after?.["overlapSeconds"], 86_400)
      assert.notInclude(JSON.stringify(entries()), "whsec_")
      assert.notInclude(JSON.stringify(entries()), "PRIVATE")
    }))
})
