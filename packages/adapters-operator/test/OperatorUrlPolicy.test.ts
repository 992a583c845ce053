import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import * as OperatorUrlPolicy from "../src/http/OperatorUrlPolicy.ts"

const names: Record<string, ReadonlyArray<string>> = {
  "ops.example": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "internal.example": ["10.1.2.3"],
  "mixed.example": ["93.184.216.34", "127.0.0.1"],
  "mapped.example": ["::ffff:192.168.1.1"]
}

const lookups: Array<string> = []
const resolve: OperatorUrlPolicy.Resolve = (hostname) =>
  Effect.sync(() => {
    lookups.push(hostname)
    return names[hostname] ?? []
  })

const strict = OperatorUrlPolicy.make(false, resolve, 0)
const permissive = OperatorUrlPolicy.make(true, resolve)

const publicOnly = "must be a host name that resolves to public addresses only"

/** The refusal detail, or "ok". */
const outcome = (policy: typeof strict, url: string) =>
  policy.check("webhookUrl", url).pipe(
    Effect.exit,
    Effect.map((exit) =>
      Exit.isSuccess(exit)
        ? "ok"
        : Exit.findErrorOption(exit).pipe((o) => o._tag === "Some" ? `${o.value.field}: ${o.value.detail}` : "defect")
    )
  )

describe("OperatorUrlPolicy", () => {
  it.effect.each([
    "http://127.0.0.1/x",
    "http://127.1.2.3:8080/",
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://192.168.0.10/",
    "http://169.254.169.254/latest/meta-data",
    "http://0.0.0.0/",
    "http://[::1]/",
    "http://[::]/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::7f00:1]/",
    "http://[fec0::1]/",
    "http://[::ffff:0:7f00:1]/",
    "http://[64:ff9b:1::7f00:1]/",
    "http://[2002:a9fe:a9fe::1]/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://localhost/",
    "http://LOCALHOST:3000/",
    "http://localhost./",
    "http://api.localhost/"
  ])("refuses %s without asking DNS", (url) =>
    Effect.gen(function*() {
      lookups.length = 0
      const result = yield* outcome(strict, url)
      assert.match(result, /^webhookUrl: must not point to a loopback, private, link-local/)
      assert.deepStrictEqual(lookups, [])
    }))

  it.effect("accepts a public literal without asking DNS", () =>
    Effect.gen(function*() {
      lookups.length = 0
      assert.strictEqual(yield* outcome(strict, "https://93.184.216.34/hook"), "ok")
      assert.strictEqual(yield* outcome(strict, "https://[2606:2800:220:1:248:1893:25c8:1946]/hook"), "ok")
      assert.deepStrictEqual(lookups, [])
    }))

  it.effect("resolves names: public only is accepted, any private address or none refused", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* outcome(strict, "https://ops.example/details"), "ok")
      for (const host of ["internal.example", "mixed.example", "mapped.example", "nowhere.example"]) {
        assert.strictEqual(yield* outcome(strict, `https://${host}/`), `webhookUrl: ${publicOnly}`, host)
      }
    }))

  it.live("answers a name that resolves to a private address and one that does not resolve alike, in comparable time", () =>
    Effect.gen(function*() {
      const slowNx: OperatorUrlPolicy.Resolve = (hostname) =>
        hostname === "internal.example" ? Effect.succeed(["10.1.2.3"]) : Effect.as(Effect.sleep("60 millis"), [])
      const policy = OperatorUrlPolicy.make(false, slowNx)
      const timed = (url: string) =>
        Effect.gen(function*() {
          const started = Date.now()
          const answer = yield* outcome(policy, url)
          return { answer, ms: Date.now() - started }
        })
      const internal = yield* timed("https://internal.example/")
      const missing = yield* timed("https://nowhere.example/")
      assert.strictEqual(internal.answer, missing.answer)
      assert.notMatch(internal.answer, /nowhere|internal/)
      assert.isAtMost(Math.abs(internal.ms - missing.ms), 40, JSON.stringify([internal.ms, missing.ms]))
    }))

  it.effect("refuses what is not an absolute http(s) URL, even when private addresses are allowed", () =>
    Effect.gen(function*() {
      for (const policy of [strict, permissive]) {
        assert.match(yield* outcome(policy, "ftp://93.184.216.34/"), /must be an absolute http\(s\) URL/)
        assert.match(yield* outcome(policy, "not a url"), /must be an absolute http\(s\) URL/)
      }
    }))

  it.effect("accepts private addresses and unresolvable names with allowPrivate", () =>
    Effect.gen(function*() {
      lookups.length = 0
      for (const url of ["http://127.0.0.1/x", "http://[::1]/", "http://localhost/", "https://internal.example/"]) {
        assert.strictEqual(yield* outcome(permissive, url), "ok", url)
      }
      assert.deepStrictEqual(lookups, [])
    }))

  it.live("refuses a name the system resolver cannot resolve (.invalid never resolves)", () =>
    Effect.gen(function*() {
      assert.match(yield* outcome(OperatorUrlPolicy.make(false), "http://gateway-test.invalid/"), new RegExp(publicOnly))
    }))
})
