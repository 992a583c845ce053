import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option, Redacted } from "effect"
import { TracingConfig } from "../src/Config.ts"

const read = (env: Record<string, string>) =>
  TracingConfig.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })), Effect.exit)

describe("TracingConfig (OTEL_*)", () => {
  it.effect("is off without an endpoint, and names the service operator-gateway", () =>
    Effect.gen(function*() {
      const config = yield* read({})
      assert.strictEqual(config._tag, "Success")
      if (config._tag !== "Success") return
      assert.isTrue(Option.isNone(config.value.endpoint) && Option.isNone(config.value.tracesEndpoint))
      assert.strictEqual(config.value.serviceName, "operator-gateway")
      assert.strictEqual(config.value.protocol, "http/json")
      assert.strictEqual(config.value.exportIntervalMs, 5000)
    }))

  it.effect("reads the headers percent-decoded and keeps them redacted", () =>
    Effect.gen(function*() {
      const config = yield* read({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318",
        OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20s3cret, x-team = gateway"
      })
      assert.strictEqual(config._tag, "Success")
      if (config._tag !== "Success") return
      const headers = Option.getOrUndefined(config.value.headers)
      assert.isDefined(headers)
      if (headers === undefined) return
      assert.deepStrictEqual(Redacted.value(headers), { authorization: "Bearer s3cret", "x-team": "gateway" })
      assert.notInclude(String(headers), "s3cret")
    }))

  it.effect("refuses gRPC, a bad endpoint and an export delay out of bounds", () =>
    Effect.gen(function*() {
      for (
        const env of [
          { OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" },
          { OTEL_EXPORTER_OTLP_ENDPOINT: "not a url" },
          { OTEL_BSP_SCHEDULE_DELAY: "0" },
          { OTEL_BSP_SCHEDULE_DELAY: "soon" }
        ]
      ) {
        assert.strictEqual((yield* read(env))._tag, "Failure", JSON.stringify(env))
      }
    }))
})
