import { Duration, Effect, Layer, Option, Redacted, References, Tracer } from "effect"
import { FetchHttpClient } from "effect/http"
import { OtlpExporter, OtlpSerialization, OtlpTracer } from "effect/observability"
import { CollectorClient, RequestSpans } from "@gateway/adapters-http"
import type { TracingConfig } from "./Config.ts"

/** The traces URL: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as given, else `/v1/traces` below `OTEL_EXPORTER_OTLP_ENDPOINT`. */
const tracesUrl = (config: TracingConfig): Option.Option<string> =>
  Option.orElse(Option.map(config.tracesEndpoint, (url) => url.href), () =>
    Option.map(config.endpoint, (base) => {
      const url = new URL(base)
      url.pathname = `${url.pathname.replace(/\/+$/, "")}/v1/traces`
      return url.href
    }))

/**
 * Effect's OTLP exporter (`effect/observability`, the Effect 4 home of
 * `@effect/opentelemetry`'s) as the tracer, through the HTTP side's export
 * policy (`RequestSpans.exported`: which traces, and no secret in them): ended
 * spans are batched and posted every `OTEL_BSP_SCHEDULE_DELAY` ms, and once
 * more when the layer is released (SIGTERM), so the last requests' spans are
 * not lost; a failed export is a warning, at most once a minute.
 */
const otlpTracer = (config: TracingConfig, url: string) =>
  Layer.effect(
    Tracer.Tracer,
    Effect.map(
      OtlpTracer.make({
        url,
        resource: { serviceName: config.serviceName },
        headers: Option.getOrUndefined(Option.map(config.headers, Redacted.value)),
        exportInterval: Duration.millis(config.exportIntervalMs)
      }),
      RequestSpans.exported
    )
  ).pipe(
    Layer.provide([
      OtlpExporter.layerFlusher,
      config.protocol === "http/protobuf" ? OtlpSerialization.layerProtobuf : OtlpSerialization.layerJson,
      CollectorClient.layer(url).pipe(Layer.provide(FetchHttpClient.layer))
    ])
  )

/**
 * Traces over OTLP when an endpoint is configured: every request is a server
 * span named by its route (`RequestSpans.spanName`), with the spans of use
 * cases, SQL statements and calls to operators below it. Without an endpoint
 * span registration is turned off (`References.TracerEnabled`): the spans
 * effect's HTTP middleware, every `Effect.fn` and the SQL client would make
 * in memory, for no one, are no-ops (issue 22) — nothing is exported and no
 * `traceparent` is sent.
 */
export const layer = (config: TracingConfig): Layer.Layer<never> =>
  Option.match(tracesUrl(config), {
    onNone: () => Layer.succeed(References.TracerEnabled, false),
    onSome: (url) => Layer.mergeAll(otlpTracer(config, url), RequestSpans.layerSpanNames)
  })
