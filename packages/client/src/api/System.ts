import { LaunchJwk } from "@gateway/domain/LaunchToken"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as Problem from "./Problem.ts"
import { AdminAuth } from "./Security.ts"

/** The answer of `/health` and `/ready`. */
export class Status extends Schema.Class<Status>("@gateway/adapters-http/Status")(Schema.Struct({
  status: Schema.Literal("ok").annotate({ description: "Always `ok`" })
}).annotate({
  identifier: "Status",
  description: "The answer of `/health` and `/ready`."
})) {}

/** The JWK Set of the launch-token keys (RFC 7517). */
export class Jwks extends Schema.Class<Jwks>("@gateway/adapters-http/Jwks")(Schema.Struct({
  keys: Schema.Array(LaunchJwk).annotate({ description: "The keys that verify launch tokens: the current one and those still in their overlap window" })
}).annotate({
  identifier: "Jwks",
  description: "The JWK Set of the launch-token keys (RFC 7517)."
})) {}

/** The answer of a key rotation: the id of the key that signs from now on. */
export class RotatedKey extends Schema.Class<RotatedKey>("@gateway/adapters-http/RotatedKey")(Schema.Struct({
  kid: Schema.String.annotate({ description: "The new key's id" })
}).annotate({
  identifier: "RotatedKey",
  description: "The answer of a key rotation: the id of the key that signs from now on."
})) {}

/** How long verifiers may cache the JWKS; a signer picks up a rotation within the same time. */
export const jwksMaxAgeSeconds = 60

const jwksCache = { "cache-control": Schema.Literal(`public, max-age=${jwksMaxAgeSeconds}`) }

/** The Prometheus text exposition format, version 0.0.4. */
export const metricsContentType = "text/plain; version=0.0.4; charset=utf-8"
const PrometheusText = Schema.String.pipe(HttpApiSchema.asText({ contentType: metricsContentType }))

/**
 * What the probes and the JWKS can refuse: they take no input and no credential, so only a body over
 * `MAX_BODY_BYTES` (a GET with a body), which every route refuses before reading it.
 */
const tooLarge = Problem.response(413, ["PAYLOAD_TOO_LARGE"])

/** Liveness and readiness probes, metrics, and the launch-token keys. */
export class SystemApi extends HttpApiGroup.make("system", { topLevel: true })
  .add(
    HttpApiEndpoint.get("health", "/health", { success: Status, error: tooLarge })
      .annotate(OpenApi.Summary, "Liveness: 200 while the process is up"),
    HttpApiEndpoint.get("ready", "/ready", { success: Status, error: [tooLarge, Problem.response(503, ["NOT_READY"])] })
      .annotate(OpenApi.Summary, "Readiness: 200 when the database answers, else 503 NOT_READY")
      .annotate(
        OpenApi.Description,
        "503 NOT_READY as well from the moment the instance begins to shut down (SIGTERM), for " +
          "`SHUTDOWN_DRAIN_SECONDS` before its listener closes, so a load balancer drains it."
      ),
    HttpApiEndpoint.get("jwks", "/.well-known/jwks.json", {
      success: HttpApiSchema.WithHeaders(Jwks, jwksCache),
      error: tooLarge
    })
      .annotate(OpenApi.Summary, "The public keys of launch tokens (JWKS)")
      .annotate(
        OpenApi.Description,
        "Ed25519 keys (`alg: EdDSA`) that verify launch JWTs by the `kid` of their header; no authentication. " +
          "After a rotation the previous key stays listed until every token it signed has expired. " +
          `Cacheable for ${jwksMaxAgeSeconds} s; refetch on an unknown kid.`
      ),
    HttpApiEndpoint.get("metrics", "/metrics", { success: PrometheusText, error: Problem.responses("UNAUTHORIZED") })
      .annotate(OpenApi.Summary, "Metrics in the Prometheus text format")
      .annotate(
        OpenApi.Description,
        "This instance's counters, histograms and gauges: `gateway_http_request_duration_seconds` (by `method`, " +
          "`route` pattern and `status`; `_count` is requests), `gateway_rate_limited_total` (429s by `route`), " +
          "`gateway_launches_total` (by `outcome`: `ok` or the problem code), " +
          "`gateway_operator_details_duration_seconds` and `gateway_wallet_debit_duration_seconds` (by `merchant` " +
          "id and `outcome`), `gateway_webhook_deliveries_total` (by event `type` and `result`: delivered, retry, " +
          "failed), `gateway_outbox_pending`, `gateway_outbox_oldest_pending_age_seconds`, `gateway_db_connections` " +
          "(by `state`) and `gateway_db_pool_max_connections` (the gauges are read from the database at most every " +
          "5 s), and the standard runtime series (`process_*`, `nodejs_*`). With `METRICS_TOKEN` set, `Authorization: Bearer <METRICS_TOKEN>` is required (401 UNAUTHORIZED " +
          "otherwise, charged to the client address like every failed authentication); without it the endpoint " +
          "is open. Labels never carry a path's values, a key or a token."
      ),
    HttpApiEndpoint.post("rotateLaunchKey", "/api/v1.1/operator-api/launch-keys/rotate", {
      success: RotatedKey,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN")
    })
      .middleware(AdminAuth)
      .annotate(OpenApi.Summary, "Rotate the launch-token signing key (scope `write:users`)")
      .annotate(
        OpenApi.Description,
        "Creates a new signing key and retires the others; answers its `kid`. Every instance signs with it " +
          "within 60 s; retired keys stay in the JWKS while their tokens can be alive. When the server runs " +
          "with `LAUNCH_SIGNING_KEY`, that key is managed outside the gateway: nothing changes and the answer " +
          "is its kid."
      )
  )
  .annotate(OpenApi.Title, "System")
  .annotate(
    OpenApi.Description,
    "Liveness and readiness probes, Prometheus metrics, the public keys of launch tokens (JWKS) and their " +
      "rotation."
  )
{}
