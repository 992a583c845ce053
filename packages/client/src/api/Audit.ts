import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Audit, Merchant, Paging } from "@gateway/domain"
import { GamesQuery } from "./Games.ts"
import * as Problem from "./Problem.ts"
import { AdminAuth } from "./Security.ts"

/** How deep the audit log pages, for both audit endpoints' descriptions. */
export const auditDepth = `Pages reach ${Audit.maxAuditOffset} entries deep (\`(page − 1) × limit\` at most that; deeper: 400 ` +
  `VALIDATION_FAILED naming \`page\`), and \`totalElements\` counts at most ${Audit.maxAuditOffset} + \`limit\` entries.`

/** The answer of the audit list. */
export class AuditList extends Schema.Class<AuditList>("@gateway/adapters-http/AuditList")(Schema.Struct({
  data: Schema.Array(Audit.AuditEntry).annotate({ description: "The entries of this page, newest first" }),
  meta: Paging.PageMeta
}).annotate({
  identifier: "AuditList",
  description: "A page of a merchant's audit log, or of the provider's (its catalogue and launch keys)."
})) {}

/** A merchant's audit log (bearer, `read:users`). */
export class AuditApi extends HttpApiGroup.make("audit")
  .add(
    HttpApiEndpoint.get("list", "/merchants/:id/audit", {
      params: { id: Merchant.MerchantId },
      query: { page: GamesQuery.page, limit: GamesQuery.limit },
      success: AuditList,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "MERCHANT_NOT_FOUND")
    })
      .annotate(OpenApi.Summary, "Read a merchant's audit log (scope `read:users`)")
      .annotate(
        OpenApi.Description,
        "Every change made to the merchant through the admin API or the command line — creation, settings " +
          "(RTP included), status, API keys issued and revoked, secrets rotated and revealed — and by the operator " +
          "to its own settings (`PUT /settings`), newest first: who (the bearer token's subject, `cli` or " +
          "`api-key`), when, from which address, and the touched values before and " +
          "after. Secrets are only named (`rotated`, `revealed`), never shown. The log is append-only: the " +
          "database refuses to change or delete an entry. A neighbour page that does not exist is 0. " + auditDepth
      ),
    HttpApiEndpoint.get("provider", "/audit", {
      query: { page: GamesQuery.page, limit: GamesQuery.limit },
      success: AuditList,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN")
    })
      .annotate(OpenApi.Summary, "Read the provider's audit log: catalogue and launch keys (scope `read:users`)")
      .annotate(
        OpenApi.Description,
        "Every change made to the provider's game catalogue through the admin API — a game added or changed " +
          "(`game.upsert`: before null and all its fields after for a game not listed before; else the fields " +
          "that changed, before and after, with its `id`) and a game retired (`game.retire`) — and of the " +
          "launch-token signing key (`launch_key.rotate`, the `kid` before and after), newest " +
          "first: who (the bearer token's subject), when, from which address. These " +
          "entries belong to no merchant (`merchantId` null). The log is append-only. " + auditDepth
      )
  )
  .middleware(AdminAuth)
  .prefix("/api/v1.1/operator-api")
  .annotate(OpenApi.Title, "Audit log")
  .annotate(
    OpenApi.Description,
    "The append-only record of administrative changes to a merchant or to the provider's own (game catalogue, " +
      "launch-token key), for the provider's admins (bearer `read:users`)."
  )
{}
