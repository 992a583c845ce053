import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as Problem from "../Problem.ts"

/** The answer of `/health` and `/ready`. */
export class Status extends Schema.Class<Status>("@gateway/adapters-http/Status")({
  status: Schema.Literal("ok")
}) {}

/** Liveness and readiness probes. */
export class SystemApi extends HttpApiGroup.make("system", { topLevel: true })
  .add(
    HttpApiEndpoint.get("health", "/health", { success: Status })
      .annotate(OpenApi.Summary, "Liveness: 200 while the process is up"),
    HttpApiEndpoint.get("ready", "/ready", { success: Status, error: Problem.response(503, ["NOT_READY"]) })
      .annotate(OpenApi.Summary, "Readiness: 200 when the database answers, else 503 NOT_READY")
  )
  .annotate(OpenApi.Title, "System")
{}
