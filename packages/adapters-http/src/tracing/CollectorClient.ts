import { Clock, Effect, Layer } from "effect"
import { HttpClient } from "effect/http"

const quietMillis = 60_000

/**
 * The HTTP client of effect's OTLP exporter, with a warning when an export
 * fails (an error status or no connection) — at most one a minute. The
 * exporter retries, then drops its buffer and pauses for a minute, logging at
 * debug level only and offering no hook: its client is where failures show.
 * The warning names the collector's origin and the failure (`HTTP 503`,
 * `TransportError`), never the URL's path, a header or the token.
 */
export const layer = (url: string): Layer.Layer<HttpClient.HttpClient, never, HttpClient.HttpClient> =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.gen(function*() {
      const client = yield* HttpClient.HttpClient
      const collector = URL.parse(url)?.origin ?? "(unparsable URL)"
      let warnedAt: number | undefined
      const warn = (failure: string) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          if (warnedAt !== undefined && now - warnedAt < quietMillis) return Effect.void
          warnedAt = now
          return Effect.logWarning("spans could not be sent to the OTLP collector (at most one warning a minute)").pipe(
            Effect.annotateLogs({ collector, failure })
          )
        })
      return client.pipe(
        HttpClient.tap((response) => response.status >= 200 && response.status < 300 ? Effect.void : warn(`HTTP ${response.status}`)),
        HttpClient.tapError((error) => warn(error.reason._tag))
      )
    })
  )
