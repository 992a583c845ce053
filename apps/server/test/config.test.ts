import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Redacted, Schema } from "effect"
import { GatewayConfig, ScheduleFromString } from "../src/Config.ts"
import * as Secrets from "../src/Secrets.ts"

const read = (env: Record<string, string>) =>
  GatewayConfig.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })), Effect.exit)

const value = <A, E>(exit: Exit.Exit<A, E>): A | "failure" => Exit.isSuccess(exit) ? exit.value : "failure"

describe("GatewayConfig", () => {
  it.effect("has the documented defaults", () =>
    Effect.gen(function*() {
      const config = value(yield* read({}))
      assert.notStrictEqual(config, "failure")
      if (config === "failure") return
      assert.include(config, {
        port: 8080,
        host: "0.0.0.0",
        dataDir: "./.data",
        launchTtlSeconds: 60,
        allowPrivateOperatorUrls: false,
        detailsTimeoutMs: 5000,
        webhookTimeoutMs: 5000,
        apiKeyCacheTtlMs: 60_000,
        readCacheTtlMs: 60_000,
        gameSessionIdleSeconds: 1800
      })
      assert.deepStrictEqual(config.rateLimit, { rps: 100, burst: 200 })
      assert.deepStrictEqual(config.webhookRetrySchedule, [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400])
    }))

  it.effect("reads the back office's mail and session settings, and refuses an SMTP_URL without quoting it", () =>
    Effect.gen(function*() {
      const defaults = value(yield* read({}))
      assert.notStrictEqual(defaults, "failure")
      if (defaults === "failure") return
      assert.isTrue(defaults.backoffice.smtpUrl._tag === "None")
      assert.include(defaults.backoffice, { sessionIdleSeconds: 1800, sessionMaxSeconds: 43_200 })
      const set = value(yield* read({ SMTP_URL: "smtps://u:p@mail.example:465", BACKOFFICE_SESSION_IDLE_SECONDS: "600" }))
      assert.isTrue(set !== "failure" && set.backoffice.smtpUrl._tag === "Some" && set.backoffice.sessionIdleSeconds === 600)
      for (const env of [{ SMTP_URL: "http://u:hunter2@mail.example" }, { SMTP_URL: "smtp://" }, { BACKOFFICE_SESSION_IDLE_SECONDS: "5" }]) {
        const exit = yield* read(env)
        assert.strictEqual(exit._tag, "Failure", JSON.stringify(env))
        assert.notInclude(String(exit), "hunter2")
      }
    }))

  it.effect("enum values are read in any case, as a person types them (LOG_LEVEL=debug works)", () =>
    Effect.gen(function*() {
      for (const [env, level, format] of [
        [{ LOG_LEVEL: "debug", LOG_FORMAT: "JSON" }, "Debug", "json"],
        [{ LOG_LEVEL: "WARN", LOG_FORMAT: "Pretty" }, "Warn", "pretty"],
        [{ LOG_LEVEL: " error ", LOG_FORMAT: "json" }, "Error", "json"],
        [{ LOG_LEVEL: "Info", LOG_FORMAT: "pretty" }, "Info", "pretty"]
      ] as const) {
        const config = value(yield* read(env))
        assert.deepStrictEqual(config === "failure" ? config : [config.logLevel, config.logFormat], [level, format])
      }
      const protocol = value(yield* read({ OTEL_EXPORTER_OTLP_PROTOCOL: "HTTP/Protobuf" }))
      assert.strictEqual(protocol === "failure" ? protocol : protocol.tracing.protocol, "http/protobuf")
      const flag = value(yield* read({ ALLOW_PRIVATE_OPERATOR_URLS: "TRUE", TRUST_PROXY: "True" }))
      assert.deepStrictEqual(flag === "failure" ? flag : [flag.allowPrivateOperatorUrls, flag.trustProxy], [true, true])
      for (const env of [{ LOG_LEVEL: "loud" }, { LOG_FORMAT: "xml" }, { TRUST_PROXY: "maybe" }]) {
        assert.strictEqual((yield* read(env))._tag, "Failure", JSON.stringify(env))
      }
    }))

  it.effect("ROUND_LINK_KEY: absent by default, a comma-separated list of keys of 32+ characters, never quoted in errors", () =>
    Effect.gen(function*() {
      const byDefault = value(yield* read({}))
      assert.isTrue(byDefault !== "failure" && byDefault.roundLinkKeys._tag === "None")
      const [first, second] = ["k".repeat(32), "q".repeat(40)]
      const listed = value(yield* read({ ROUND_LINK_KEY: ` ${first} , ${second}` }))
      assert.deepStrictEqual(
        listed === "failure" || listed.roundLinkKeys._tag === "None" ? listed : listed.roundLinkKeys.value.map(Redacted.value),
        [first, second]
      )
      for (const bad of ["short", `${first},short`, Array(9).fill(first).join(",")]) {
        const exit = yield* read({ ROUND_LINK_KEY: bad })
        assert.strictEqual(exit._tag, "Failure", bad.slice(0, 40))
        assert.notInclude(String(Exit.isFailure(exit) ? exit.cause : ""), "short")
      }
    }))

  it.effect("REDIS_URL is optional; OPERATOR_BREAKER_*: 5 failures, 1 s open by default, 0 failures turns it off", () =>
    Effect.gen(function*() {
      const byDefault = value(yield* read({}))
      assert.deepStrictEqual(
        byDefault === "failure" ? byDefault : [byDefault.redis.url._tag, byDefault.redis.keyPrefix, byDefault.operatorBreaker],
        ["None", "gateway:", { failures: 5, openMs: 1000 }]
      )
      const set = value(yield* read({
        REDIS_URL: "redis://:secret@10.0.0.5:6379/2",
        REDIS_KEY_PREFIX: "eu-1:",
        OPERATOR_BREAKER_FAILURES: "0",
        OPERATOR_BREAKER_OPEN_MS: "500"
      }))
      assert.notStrictEqual(set, "failure")
      if (set === "failure") return
      assert.strictEqual(set.redis.keyPrefix, "eu-1:")
      assert.deepStrictEqual(set.operatorBreaker, { failures: 0, openMs: 500 })
      assert.notInclude(String(set.redis.url), "secret", "the URL (and its password) is redacted")
      for (const env of [{ REDIS_URL: "localhost:6379" }, { REDIS_KEY_PREFIX: "a b" }, { OPERATOR_BREAKER_FAILURES: "-1" },
        { OPERATOR_BREAKER_OPEN_MS: "50" }, { OPERATOR_BREAKER_OPEN_MS: "soon" }]) {
        assert.strictEqual((yield* read(env))._tag, "Failure", JSON.stringify(env))
      }
    }))

  it.effect("SHUTDOWN_DRAIN_SECONDS: 5 by default, 0 to 300", () =>
    Effect.gen(function*() {
      const byDefault = value(yield* read({}))
      assert.strictEqual(byDefault === "failure" ? byDefault : byDefault.shutdownDrainSeconds, 5)
      const none = value(yield* read({ SHUTDOWN_DRAIN_SECONDS: "0" }))
      assert.strictEqual(none === "failure" ? none : none.shutdownDrainSeconds, 0)
      for (const bad of ["-1", "301", "soon", "1.5"]) {
        assert.strictEqual((yield* read({ SHUTDOWN_DRAIN_SECONDS: bad }))._tag, "Failure", bad)
      }
    }))

  it.effect("PASSWORD_HASH_COST: scrypt at 2^15 by default, 10 to 20", () =>
    Effect.gen(function*() {
      const byDefault = value(yield* read({}))
      assert.strictEqual(byDefault === "failure" ? byDefault : byDefault.passwordHashCost, 15)
      const cheap = value(yield* read({ PASSWORD_HASH_COST: "10" }))
      assert.strictEqual(cheap === "failure" ? cheap : cheap.passwordHashCost, 10)
      for (const bad of ["9", "21", "15.5", "high"]) {
        assert.strictEqual((yield* read({ PASSWORD_HASH_COST: bad }))._tag, "Failure", bad)
      }
    }))

  it.effect("MIGRATE_ON_START: true by default", () =>
    Effect.gen(function*() {
      for (const [env, migrate] of [[{}, true], [{ MIGRATE_ON_START: "false" }, false], [{ MIGRATE_ON_START: "No" }, false]] as const) {
        const config = value(yield* read(env))
        assert.strictEqual(config === "failure" ? config : config.migrateOnStart, migrate, JSON.stringify(env))
      }
      assert.strictEqual((yield* read({ MIGRATE_ON_START: "later" }))._tag, "Failure")
    }))

  it.effect("WEBHOOK_RETRY_SCHEDULE: comma-separated seconds", () =>
    Effect.gen(function*() {
      const tiny = value(yield* read({ WEBHOOK_RETRY_SCHEDULE: "0.05, 0.05,1" }))
      assert.deepStrictEqual(tiny === "failure" ? tiny : tiny.webhookRetrySchedule, [0.05, 0.05, 1])
      for (const bad of ["5,,6", "-1", "abc", "5;300"]) {
        assert.strictEqual((yield* read({ WEBHOOK_RETRY_SCHEDULE: bad }))._tag, "Failure", bad)
      }
      assert.deepStrictEqual(Schema.decodeUnknownSync(ScheduleFromString)("5,300"), [5, 300])
    }))

  it.effect("the cache TTLs are bounded to an hour; 0 turns a cache off", () =>
    Effect.gen(function*() {
      const off = value(yield* read({ API_KEY_CACHE_TTL_MS: "0", READ_CACHE_TTL_MS: "0" }))
      assert.deepStrictEqual(off === "failure" ? off : [off.apiKeyCacheTtlMs, off.readCacheTtlMs], [0, 0])
      for (const env of [{ API_KEY_CACHE_TTL_MS: "3600001" }, { API_KEY_CACHE_TTL_MS: "soon" }, { READ_CACHE_TTL_MS: "-1" }]) {
        assert.strictEqual((yield* read(env))._tag, "Failure", JSON.stringify(env))
      }
    }))
})

describe("rate limit settings", () => {
  it.effect("reads RATE_LIMIT_RPS and RATE_LIMIT_BURST; refuses a negative rate or a burst below 1", () =>
    Effect.gen(function*() {
      const set = value(yield* read({ RATE_LIMIT_RPS: "2.5", RATE_LIMIT_BURST: "7" }))
      assert.deepStrictEqual(set === "failure" ? set : set.rateLimit, { rps: 2.5, burst: 7 })
      for (const env of [{ RATE_LIMIT_RPS: "-1" }, { RATE_LIMIT_BURST: "0" }, { RATE_LIMIT_RPS: "fast" }]) {
        assert.strictEqual((yield* read(env))._tag, "Failure", JSON.stringify(env))
      }
    }))
})

describe("slow clients and admin tokens (issue 21)", () => {
  it.effect("HTTP time-outs, the per-address connection cap and the admin token lifetime: documented defaults, bounded", () =>
    Effect.gen(function*() {
      const defaults = value(yield* read({}))
      if (defaults === "failure") return assert.fail("the defaults should read")
      assert.deepStrictEqual(defaults.connections, {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        idleTimeoutMs: 120_000,
        maxPerAddress: 256
      })
      assert.strictEqual(defaults.auth.maxLifetimeSeconds, 86_400)
      const set = value(yield* read({ MAX_CONNECTIONS_PER_ADDRESS: "0", AUTH_MAX_TOKEN_LIFETIME_SECONDS: "3600" }))
      assert.deepStrictEqual(set === "failure" ? set : [set.connections.maxPerAddress, set.auth.maxLifetimeSeconds], [0, 3600])
      for (
        const env of [
          { HTTP_HEADERS_TIMEOUT_MS: "0" },
          { HTTP_REQUEST_TIMEOUT_MS: "forever" },
          { HTTP_IDLE_TIMEOUT_MS: "999" },
          { MAX_CONNECTIONS_PER_ADDRESS: "-1" },
          { AUTH_MAX_TOKEN_LIFETIME_SECONDS: "3153600000" }
        ]
      ) {
        assert.strictEqual((yield* read(env))._tag, "Failure", JSON.stringify(env))
      }
    }))
})

describe("secrets at start-up", () => {
  it.effect("DATA_ENCRYPTION_KEY is required with DATABASE_URL; admin tokens need AUTH_JWT_SECRET or AUTH_JWKS_URL", () =>
    Effect.gen(function*() {
      const config = value(yield* read({ DATABASE_URL: "postgres://db.example/x" }))
      if (config === "failure") return assert.fail("the configuration should read")
      const key = yield* Effect.flip(Secrets.dataEncryptionKeys(config))
      assert.strictEqual(key.message, "DATA_ENCRYPTION_KEY is required when DATABASE_URL is set (32 bytes, hex or base64)")
      const auth = yield* Effect.flip(Secrets.adminTokens(config))
      assert.strictEqual(auth.message, "AUTH_JWT_SECRET or AUTH_JWKS_URL is required when DATABASE_URL is set")
    }))

  it.effect("AUTH_JWKS_URL without AUTH_AUDIENCE and AUTH_ISSUER stops start-up naming what is missing", () =>
    Effect.gen(function*() {
      const cases = [
        [{}, "AUTH_JWKS_URL requires AUTH_AUDIENCE and AUTH_ISSUER"],
        [{ AUTH_AUDIENCE: "gateway" }, "AUTH_JWKS_URL requires AUTH_ISSUER"],
        [{ AUTH_ISSUER: "https://idp.example/" }, "AUTH_JWKS_URL requires AUTH_AUDIENCE"]
      ] as const
      for (const [env, message] of cases) {
        const config = value(yield* read({ AUTH_JWKS_URL: "https://idp.example/jwks.json", ...env }))
        if (config === "failure") return assert.fail("the configuration should read")
        assert.strictEqual((yield* Effect.flip(Secrets.adminTokens(config))).message, message)
      }
      const both = value(yield* read({
        AUTH_JWKS_URL: "https://idp.example/jwks.json",
        AUTH_AUDIENCE: "gateway",
        AUTH_ISSUER: "https://idp.example/"
      }))
      if (both === "failure") return assert.fail("the configuration should read")
      const options = yield* Secrets.adminTokens(both)
      assert.strictEqual(options.audience, "gateway")
    }))
})
