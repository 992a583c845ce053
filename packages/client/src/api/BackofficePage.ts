import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as Problem from "./Problem.ts"

const Html = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html; charset=utf-8" }))

/** The back office's pages (CONTRACT §9): one HTML document, the app inside it. */
export class BackofficePageApi extends HttpApiGroup.make("backofficePage", { topLevel: true })
  .add(
    HttpApiEndpoint.get("backofficePage", "/backoffice", { success: Html, error: Problem.responses() })
      .annotate(OpenApi.Summary, "The merchant back office (the pages)")
      .annotate(
        OpenApi.Description,
        "The back office as a browser app: sign-in (with a TOTP code when asked), the forced password change, " +
          "e-mail verification, today's figures and charts, settings with a preview of the game page's branding, " +
          "RTP per game, API keys, webhook secrets and deliveries, round look-up, reports, users and the audit log. " +
          "Its script and style are inline under a per-response CSP nonce; it calls `/api/v1.1/backoffice/` on its " +
          "own origin with the session cookie and the `x-csrf-token` header; it may not be framed."
      )
  )
  .annotate(OpenApi.Title, "Back office: pages")
  .annotate(OpenApi.Description, "The HTML page of the merchant back office; no authentication (the page signs in itself).")
{}
