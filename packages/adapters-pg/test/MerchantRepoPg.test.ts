import { assert, describe, layer } from "@effect/vitest"
import { EmailTaken, MerchantId } from "@gateway/domain/Merchant"
import { applyChange } from "@gateway/domain/MerchantSettings"
import { cliActor } from "@gateway/domain/Audit"
import { AuditLog } from "@gateway/domain/ports/AuditLog"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { ValidationFailed } from "@gateway/domain/Validation"
import { Effect, Exit, Redacted, Result, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { newMerchant, reposLayer } from "./fixtures.ts"

describe("MerchantRepoPg", () => {
  layer(reposLayer)((it) => {
    it.effect("creates a merchant with empty settings and finds it", () =>
      Effect.gen(function*() {
        const repo = yield* MerchantRepo
        const created = yield* repo.create(newMerchant("ops@one.example"))
        assert.strictEqual(created.email, "ops@one.example")
        assert.strictEqual(created.accountStatus, "active")
        assert.strictEqual(created.phoneNumber, "")
        assert.isTrue(created.isDefaultPassword)
        assert.isFalse(created.verifiedEmail)
        assert.strictEqual(created.MerchantSettings.merchantId, created.id)
        assert.deepStrictEqual(Object.keys(created.MerchantSettings).sort(), ["createdAt", "id", "merchantId", "updatedAt"])
        const found = yield* repo.findById(created.id)
        assert.strictEqual(found.clientId, created.clientId)
        assert.strictEqual(found.currency, "ETB")
      }))

    it.effect("reads the delivery settings of a batch's merchants in one read, as findById has them, leaving out unknown ids", () =>
      Effect.gen(function*() {
        const repo = yield* MerchantRepo
        const a = yield* repo.create(newMerchant("batch-a@one.example"))
        const b = yield* repo.create(newMerchant("batch-b@one.example"))
        yield* repo.changeSettings(b.id, (current) =>
          Result.succeed({
            ...current,
            webhookUrl: "https://b.example/hook",
            isSeperateWebhookUrl: true,
            creditWebhookUrl: "https://b.example/credit",
            callbackUrl: "https://b.example/events"
          }))
        const found = yield* repo.deliverySettings([b.id, MerchantId.make(999_999), a.id])
        assert.deepStrictEqual([...found.keys()].sort(), [a.id, b.id].sort())
        assert.deepStrictEqual(found.get(a.id), {})
        assert.deepStrictEqual(found.get(b.id), {
          webhookUrl: "https://b.example/hook",
          isSeperateWebhookUrl: true,
          creditWebhookUrl: "https://b.example/credit",
          callbackUrl: "https://b.example/events"
        })
        const settings = (yield* repo.findById(b.id)).MerchantSettings
        assert.strictEqual(found.get(b.id)?.creditWebhookUrl, settings.creditWebhookUrl)
        assert.strictEqual((yield* repo.deliverySettings([])).size, 0)
      }))

    it.effect("refuses an email that exists in another case with EmailTaken", () =>
      Effect.gen(function*() {
        const repo = yield* MerchantRepo
        yield* repo.create(newMerchant("Taken@Two.example"))
        const again = yield* Effect.flip(repo.create(newMerchant("taken@TWO.example")))
        assert.instanceOf(again, EmailTaken)
        const sql = yield* SqlClient
        const rows = yield* sql`SELECT count(*)::int AS n FROM merchants WHERE lower(email) = 'taken@two.example'`
        assert.deepStrictEqual(rows, [{ n: 1 }])
      }))

    it.effect("encrypts the private key and encryption key at rest and decrypts them", () =>
      Effect.gen(function*() {
        const repo = yield* MerchantRepo
        const input = newMerchant("secrets@three.example")
        const created = yield* repo.create(input)
        const sql = yield* SqlClient
        const [raw] = yield* sql<{ readonly row: string }>`SELECT m::text AS row FROM merchants m WHERE id = ${created.id}`
        assert.isDefined(raw)
        assert.notInclude(raw?.row ?? "", "SUPER-SECRET-PRIVATE")
        assert.notInclude(raw?.row ?? "", "c2VjcmV0LWVuY3J5cHRpb24ta2V5")
        assert.include(raw?.row ?? "", "v1:")
        const secrets = yield* repo.secrets(created.id)
        assert.strictEqual(Redacted.value(secrets.privateKey), Redacted.value(input.privateKey))
        assert.strictEqual(Redacted.value(secrets.encryptionKey), Redacted.value(input.encryptionKey))
      }))

    it.effect("changes settings, keeps them, and refuses minimumStake above maximumStake", () =>
      Effect.gen(function*() {
        const repo = yield* MerchantRepo
        const { id } = yield* repo.create(newMerchant("settings@four.example"))
        const settings = yield* repo.changeSettings(id, (current) =>
          Result.succeed(applyChange(current, {
            minimumStake: 1,
            maximumStake: 100,
            webhookUrl: "https://op.example/hook",
            isSeperateWebhookUrl: false,
            logo1xUrl: "https://op.example/logo.png"
          })))
        assert.strictEqual(settings.minimumStake, 1)
        assert.strictEqual(settings.logo1xUrl, "https://op.example/logo.png")
        assert.strictEqual(settings.isSeperateWebhookUrl, false)
        const refused = yield* Effect.flip(repo.changeSettings(id, (current) => {
          const next = applyChange(current, { minimumStake: 500 })
          return next.minimumStake !== undefined && next.maximumStake !== undefined && next.minimumStake > next.maximumStake
            ? Result.fail(new ValidationFailed({ field: "minimumStake", detail: "must not be greater than maximumStake" }))
            : Result.succeed(next)
        }))
        assert.instanceOf(refused, ValidationFailed)
        const cleared = yield* repo.changeSettings(id, (current) => Result.succeed(applyChange(current, { webhookUrl: null })))
        assert.isUndefined(cleared.webhookUrl)
        const found = yield* repo.findById(id)
        assert.strictEqual(found.MerchantSettings.minimumStake, 1)
        assert.strictEqual(found.MerchantSettings.maximumStake, 100)
        assert.notProperty(found.MerchantSettings, "webhookUrl")
      }))

    it.effect("keeps stake limits exactly, as numeric, and answers them as numbers", () =>
      Effect.gen(function*() {
        const repo = yield* MerchantRepo
        const sql = yield* SqlClient
        const { id } = yield* repo.create(newMerchant("exact@four.example"))
        const settings = yield* repo.changeSettings(id, (current) =>
          Result.succeed(applyChange(current, { minimumStake: 0.01, maximumStake: 9999999999999.99 })))
        assert.deepStrictEqual([settings.minimumStake, settings.maximumStake], [0.01, 9999999999999.99])
        const [row] = yield* sql<{ readonly min: string; readonly max: string; readonly type: string }>`
          SELECT minimum_stake::text AS min, maximum_stake::text AS max, pg_typeof(maximum_stake)::text AS type
          FROM merchant_settings WHERE merchant_id = ${id}`
        assert.deepStrictEqual(row, { min: "0.01", max: "9999999999999.99", type: "numeric" })
        const found = yield* repo.findById(id)
        assert.deepStrictEqual([found.MerchantSettings.minimumStake, found.MerchantSettings.maximumStake], [0.01, 9999999999999.99])
        const tiny = yield* repo.changeSettings(id, (current) => Result.succeed(applyChange(current, { minimumStake: 1e-4 })))
        assert.strictEqual(tiny.minimumStake, 0.0001)
      }))

    it.effect("applies concurrent settings changes one after the other", () =>
      Effect.gen(function*() {
        const repo = yield* MerchantRepo
        const { id } = yield* repo.create(newMerchant("race@five.example"))
        yield* Effect.all(
          Array.from({ length: 8 }, () =>
            repo.changeSettings(id, (current) =>
              Result.succeed(applyChange(current, { maximumStake: (current.maximumStake ?? 0) + 1 })))),
          { concurrency: "unbounded" }
        )
        const found = yield* repo.findById(id)
        assert.strictEqual(found.MerchantSettings.maximumStake, 8)
      }))

    it.effect("changes status, and closed is final", () =>
      Effect.gen(function*() {
        const repo = yield* MerchantRepo
        const { id } = yield* repo.create(newMerchant("status@six.example"))
        assert.strictEqual((yield* repo.changeStatus(id, "suspended")).accountStatus, "suspended")
        assert.strictEqual((yield* repo.changeStatus(id, "active")).accountStatus, "active")
        assert.strictEqual((yield* repo.changeStatus(id, "closed")).accountStatus, "closed")
        const refused = yield* Effect.flip(repo.changeStatus(id, "active"))
        assert.strictEqual(refused._tag, "StatusChangeRefused")
        assert.strictEqual((yield* repo.findById(id)).accountStatus, "closed")
      }))

    it.effect("lists merchants newest first, paged, searched literally and filtered by status, without secrets", () =>
      Effect.gen(function*() {
        const repo = yield* MerchantRepo
        const a = yield* repo.create({ ...newMerchant("a@list.example"), companyName: "100% Lister" })
        const b = yield* repo.create({ ...newMerchant("b_x@LIST.example"), companyName: "Plain Lister" })
        const c = yield* repo.create({ ...newMerchant("c@list.example"), companyName: "Other" })
        yield* repo.changeStatus(b.id, "suspended")
        const first = yield* repo.list({ page: 1, limit: 2, search: "@list.EXAMPLE" })
        assert.strictEqual(first.total, 3)
        assert.deepStrictEqual(first.merchants.map((m) => m.id), [c.id, b.id])
        const second = yield* repo.list({ page: 2, limit: 2, search: "@list.example" })
        assert.deepStrictEqual(second.merchants.map((m) => m.id), [a.id])
        const past = yield* repo.list({ page: 9, limit: 2, search: "@list.example" })
        assert.deepStrictEqual([past.merchants.length, past.total], [0, 3])
        const percent = yield* repo.list({ page: 1, limit: 10, search: "0% lis" })
        assert.deepStrictEqual(percent.merchants.map((m) => m.id), [a.id])
        assert.strictEqual((yield* repo.list({ page: 1, limit: 10, search: "%" })).total, 1)
        const underscore = yield* repo.list({ page: 1, limit: 10, search: "_x@" })
        assert.deepStrictEqual(underscore.merchants.map((m) => m.id), [b.id])
        assert.strictEqual((yield* repo.list({ page: 1, limit: 10, search: "b\\_x" })).total, 0)
        const suspended = yield* repo.list({ page: 1, limit: 10, search: "lister", status: "suspended" })
        assert.deepStrictEqual(suspended.merchants.map((m) => [m.id, m.accountStatus]), [[b.id, "suspended"]])
        const all = yield* repo.list({ page: 1, limit: 100 })
        assert.isAtLeast(all.total, 3)
        assert.deepStrictEqual(all.merchants.map((m) => m.id), [...all.merchants.map((m) => m.id)].sort((x, y) => y - x))
        const found = first.merchants[0]
        assert.deepStrictEqual(found?.MerchantSettings.merchantId, c.id)
        const text = JSON.stringify(all.merchants)
        for (const secret of ["SUPER-SECRET-PRIVATE", "whsec_", "scrypt$", "sha256$", "privateKey", "encryptionKey", "passwordHash", "otpHash"]) {
          assert.notInclude(text, secret)
        }
      }))

    it.effect("a rotation keeps the replaced secret signing for the overlap only, and a second one replaces it", () =>
      Effect.gen(function*() {
        const repo = yield* MerchantRepo
        const created = yield* repo.create(newMerchant("rotate@one.example"))
        const rotated = yield* repo.rotateSecret(created.id, { secret: "encryptionKey", encryptionKey: Redacted.make("whsec_NEW") }, 60)
        assert.isTrue(Math.abs(rotated.overlapUntilMs - (Date.now() + 60_000)) < 10_000)
        assert.isUndefined(rotated.previousPublicKey)
        const during = yield* repo.secrets(created.id)
        assert.strictEqual(Redacted.value(during.encryptionKey), "whsec_NEW")
        assert.strictEqual(during.previousEncryptionKey && Redacted.value(during.previousEncryptionKey.value), "whsec_c2VjcmV0LWVuY3J5cHRpb24ta2V5LXZhbHVlLTAx")
        assert.strictEqual(during.previousEncryptionKey?.untilMs, rotated.overlapUntilMs)
        assert.isUndefined(during.previousPrivateKey)

        const pair = { secret: "signingKey", privateKey: Redacted.make("PRIVATE 2"), publicKey: "PUBLIC 2" } as const
        const signing = yield* repo.rotateSecret(created.id, pair, 0)
        assert.strictEqual(signing.previousPublicKey, created.publicKey)
        assert.strictEqual((yield* repo.findById(created.id)).publicKey, "PUBLIC 2")
        const afterZero = yield* repo.secrets(created.id)
        assert.strictEqual(Redacted.value(afterZero.privateKey), "PRIVATE 2")
        assert.isUndefined(afterZero.previousPrivateKey, "an overlap of 0 stops the old key at once")

        yield* repo.rotateSecret(created.id, { secret: "encryptionKey", encryptionKey: Redacted.make("whsec_THIRD") }, 60)
        const again = yield* repo.secrets(created.id)
        assert.strictEqual(again.previousEncryptionKey && Redacted.value(again.previousEncryptionKey.value), "whsec_NEW")
        const sql = yield* SqlClient
        const stored = JSON.stringify(yield* sql`SELECT * FROM merchants WHERE id = ${created.id}`)
        for (const plain of ["whsec_NEW", "whsec_THIRD", "PRIVATE 2"]) assert.notInclude(stored, plain)
        assert.strictEqual(Exit.isFailure(yield* Effect.exit(repo.rotateSecret(MerchantId.make(999_999), pair, 0))), true)
      }))

    it.effect("keeps a change and its audit entry both or neither; lists entries newest first", () =>
      Effect.gen(function*() {
        const repo = yield* MerchantRepo
        const audit = yield* AuditLog
        const created = yield* repo.create(newMerchant("audited@one.example"))
        const entry = (to: string) => () => ({
          merchantId: created.id,
          actor: cliActor,
          action: "merchant.status" as const,
          before: { accountStatus: "active" },
          after: { accountStatus: to }
        })
        yield* audit.audited(repo.changeStatus(created.id, "suspended"), entry("suspended"))
        const failed = yield* Effect.flip(
          audit.audited(Effect.andThen(repo.changeStatus(created.id, "closed"), Effect.fail("refused later")), entry("closed"))
        )
        assert.strictEqual(failed, "refused later")
        assert.strictEqual((yield* repo.findById(created.id)).accountStatus, "suspended", "the change rolled back with the entry")
        yield* audit.audited(repo.changeStatus(created.id, "active"), entry("active"))
        const page = yield* audit.list(created.id, { page: 1, limit: 10 })
        assert.strictEqual(page.total, 2)
        assert.deepStrictEqual(page.entries.map((e) => [e.actor, e.address, e.after]), [
          ["cli", null, { accountStatus: "active" }],
          ["cli", null, { accountStatus: "suspended" }]
        ])
        assert.isTrue(Schema.is(Schema.String)(page.entries[0]?.at))
      }))

    it.effect("unknown merchants are MerchantNotFound", () =>
      Effect.gen(function*() {
        const repo = yield* MerchantRepo
        const missing = MerchantId.make(999_999)
        const errors = [
          yield* Effect.flip(repo.findById(missing)),
          yield* Effect.flip(repo.secrets(missing)),
          yield* Effect.flip(repo.changeStatus(missing, "closed")),
          yield* Effect.flip(repo.changeSettings(missing, Result.succeed))
        ]
        assert.deepStrictEqual(errors.map((e) => e._tag), Array(4).fill("MerchantNotFound"))
      }))
  })
})
