import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  ApiKey,
  Delivery,
  DeliveryAttempt,
  MerchantSettings,
  Report,
  RevenueShareReport,
  SecretRotation,
  Validation
} from "@gateway/domain"
import { Access, BackofficeAuth, PasswordBody } from "./Backoffice.ts"
import { Deliveries, maxListed } from "./Deliveries.ts"
import { IssueApiKey, IssuedApiKey } from "./Merchants.ts"
import * as Problem from "./Problem.ts"
import { range, RoundsQuery, SummaryQuery } from "./Reports.ts"
import { overlapRule } from "./Secrets.ts"

/** A key of the merchant as its staff see it: never its secret. */
export class BackofficeApiKey extends Schema.Class<BackofficeApiKey>("@gateway/client/api/BackofficeOps/ApiKey")(Schema.Struct({
  slug: Schema.String.annotate({ description: "The key's public part (after the last `.`), to revoke it" }),
  prefix: ApiKey.ApiKeyPrefix.annotateKey({ description: "`sv_live` or `sv_test`" }),
  createdAt: Schema.String.annotate({ description: "When it was issued (ISO 8601, UTC)" }),
  revokedAt: Schema.optionalKey(Schema.String.annotate({ description: "When it was revoked (ISO 8601, UTC); absent while live" })),
  lastUsedAt: Schema.optionalKey(Schema.String.annotate({
    description: "When it last authenticated a call (ISO 8601, UTC, to the minute: written at most once a minute); absent if never"
  }))
}).annotate({ identifier: "BackofficeApiKey", description: "An API key of the merchant, without its secret." })) {}

/** The merchant's keys, newest first. */
export class BackofficeApiKeys extends Schema.Class<BackofficeApiKeys>("@gateway/client/api/BackofficeOps/ApiKeys")(Schema.Struct({
  data: Schema.Array(BackofficeApiKey).annotate({ description: `The keys, live and revoked, newest first (at most ${maxListed})` })
}).annotate({ identifier: "BackofficeApiKeys", description: "The merchant's API keys." })) {}

const optionalRange = {
  from: Schema.optionalKey(range.from),
  to: Schema.optionalKey(range.to)
}

const Id = (description: string) =>
  Schema.optionalKey(Schema.String.check(Schema.isNonEmpty(), Schema.isMaxLength(64), Validation.isStorableText).annotate({ description }))

/** The round look-up's query: an id, or the round list's filters. */
export const LookUpQuery = {
  ...RoundsQuery,
  ...optionalRange,
  roundId: Id("only this round (its id, as a round or a webhook's `roundId` gives it)"),
  transactionId: Id("only the round of this wallet transaction (a debit, credit or refund id: the `webhook-id`)")
}

const Csv = HttpApiSchema.StreamUint8Array({ contentType: "text/csv; charset=utf-8" })
const summaryQuery = { ...SummaryQuery, ...optionalRange }
const deliveryId = { deliveryId: Schema.String.check(Schema.isMaxLength(64), Validation.isStorableText) }
const today = "Without `from` and `to` the period is today (UTC); with one, the other end defaults to today's."
const csvAlso = "With `accept: text/csv` (or at `GET summary.csv`) the same rows as the operator's CSV export, as a download."

/** A secret rotation from the back office. */
export const RotateSecret = SecretRotation.RotateSecretRequest

/**
 * What a merchant's staff do in the back office (CONTRACT §9), each endpoint
 * gated by a permission of the role table: reports, round look-up, settings,
 * keys, secrets, webhook deliveries and the revenue share. Every answer is the
 * same as the operator or admin API's for the session's merchant.
 */
export class BackofficeOpsApi extends HttpApiGroup.make("backofficeOps")
  .add(
    HttpApiEndpoint.get("summary", "/summary", {
      query: summaryQuery,
      success: [Report.Summary, Csv],
      error: Problem.responses("REPORTS_BUSY", "REPORT_TIMEOUT")
    })
      .annotate(Access, { permission: "reports" })
      .annotate(OpenApi.Summary, "GGR summary of a period (reports)")
      .annotate(
        OpenApi.Description,
        "The operator's `GET /operator-api/reports/summary` for the session's merchant: real money only, grouped by " +
          "`day` (default), `game`, `player` or `shop`. " + today + " " + csvAlso
      ),
    HttpApiEndpoint.get("summaryCsv", "/summary.csv", {
      query: summaryQuery,
      success: Csv,
      error: Problem.responses("REPORTS_BUSY", "REPORT_TIMEOUT")
    })
      .annotate(Access, { permission: "reports" })
      .annotate(OpenApi.Summary, "GGR summary as a CSV download (reports)")
      .annotate(OpenApi.Description, "`GET summary` with `accept: text/csv`: every group, no paging. " + today),
    HttpApiEndpoint.get("rounds", "/rounds", {
      query: LookUpQuery,
      success: Report.OperatorRoundList,
      error: Problem.responses("REPORTS_BUSY", "REPORT_TIMEOUT")
    })
      .annotate(Access, { permission: "rounds" })
      .annotate(OpenApi.Summary, "Look rounds up by round id, transaction id or player (rounds)")
      .annotate(
        OpenApi.Description,
        "The operator's `GET /operator-api/rounds` for the session's merchant, each round with its `roundDetailsUrl` " +
          "(the proof) and transactions. With `roundId` or `transactionId` and no period, the round is looked up " +
          "in the whole history; a transaction of another merchant finds nothing (an empty list). Otherwise: " + today
      ),
    HttpApiEndpoint.get("settings", "/settings", { success: MerchantSettings.MerchantSettings, error: Problem.responses() })
      .annotate(Access, { permission: "settings" })
      .annotate(OpenApi.Summary, "The merchant's settings (settings)")
      .annotate(OpenApi.Description, "As the operator's `GET /operator-api/settings`, RTP (`…GameProfit`) fields included."),
    HttpApiEndpoint.put("changeSettings", "/settings", {
      payload: MerchantSettings.SettingsChange,
      success: MerchantSettings.MerchantSettings,
      error: Problem.responses()
    })
      .annotate(Access, { permission: "settings" })
      .annotate(OpenApi.Summary, "Change the merchant's settings (settings)")
      .annotate(
        OpenApi.Description,
        "As the operator's `PUT /operator-api/settings`: each key given is set, `null` clears it, an absent key is " +
          "kept; the five revenue shares are the provider's to set (403). Audited with the user's e-mail as actor, " +
          "before and after."
      ),
    HttpApiEndpoint.get("apiKeys", "/api-keys", { success: BackofficeApiKeys, error: Problem.responses() })
      .annotate(Access, { permission: "keys" })
      .annotate(OpenApi.Summary, "The merchant's API keys, with when each was last used (keys)"),
    HttpApiEndpoint.post("issueApiKey", "/api-keys", {
      payload: IssueApiKey,
      success: IssuedApiKey.pipe(HttpApiSchema.status(201)),
      error: Problem.responses()
    })
      .annotate(Access, { permission: "keys" })
      .annotate(OpenApi.Summary, "Issue an API key (keys; the full key is shown only in this answer)")
      .annotate(OpenApi.Description, "The body is optional: none (or `null`) issues an `sv_live` key. Audited.")
      .annotate(OpenApi.Transform, (op) => op.requestBody === undefined ? op : { ...op, requestBody: { ...op.requestBody, required: false } }),
    HttpApiEndpoint.delete("revokeApiKey", "/api-keys/:slug", {
      params: { slug: Schema.String.check(Schema.isMaxLength(64), Validation.isStorableText) },
      success: HttpApiSchema.NoContent.annotate({ description: "Revoked: the key is refused from now on; no body" }),
      error: Problem.responses("API_KEY_NOT_FOUND")
    })
      .annotate(Access, { permission: "keys" })
      .annotate(OpenApi.Summary, "Revoke an API key (keys)")
      .annotate(OpenApi.Description, "The key fails with 401 at once. Not a live key of this merchant: 404 API_KEY_NOT_FOUND. Audited."),
    HttpApiEndpoint.post("revealSecret", "/secrets/reveal", {
      payload: PasswordBody,
      success: SecretRotation.RevealedSecret,
      error: Problem.responses("INVALID_CREDENTIALS", "RATE_LIMITED")
    })
      .annotate(Access, { permission: "secrets" })
      .annotate(OpenApi.Summary, "Reveal the webhook secret, after the password again (secrets)")
      .annotate(
        OpenApi.Description,
        "The current `encryptionKey`. A wrong password: 401 INVALID_CREDENTIALS, counted as a failed sign-in of the " +
          "account (from the 6th in a row, 429 RATE_LIMITED with `retry-after`). Each reveal is audited " +
          "(`secret.reveal`, never the value)."
      ),
    HttpApiEndpoint.post("rotateSecret", "/secrets/rotate", {
      payload: RotateSecret,
      success: SecretRotation.RotatedSecret,
      error: Problem.responses()
    })
      .annotate(Access, { permission: "secrets" })
      .annotate(OpenApi.Summary, "Rotate the webhook secret or the Ed25519 key pair (secrets)")
      .annotate(OpenApi.Description, "As the admin's `POST /merchants/{id}/secrets/rotate`. " + overlapRule + " Audited as \"rotated\"."),
    HttpApiEndpoint.get("deliveries", "/deliveries", {
      query: {
        status: Schema.optionalKey(Delivery.DeliveryStatus.annotate({
          description: "`pending`, `delivered` or `failed`; absent: every status"
        }))
      },
      success: Deliveries,
      error: Problem.responses()
    })
      .annotate(Access, { permission: "deliveries" })
      .annotate(OpenApi.Summary, "The merchant's webhook deliveries (deliveries)")
      .annotate(OpenApi.Description, `As the admin's list: newest first, at most ${maxListed}.`),
    HttpApiEndpoint.get("delivery", "/deliveries/:deliveryId", {
      params: deliveryId,
      success: DeliveryAttempt.DeliveryDetail,
      error: Problem.responses("DELIVERY_NOT_FOUND")
    })
      .annotate(Access, { permission: "deliveries" })
      .annotate(OpenApi.Summary, "One delivery with each attempt's raw request and answer (deliveries)")
      .annotate(
        OpenApi.Description,
        "The message, its body and its attempts: each with the signed request (method, URL with its query values " +
          "hidden, headers with `webhook-signature`, body) and the answer (status, some headers, the body cut at " +
          `${DeliveryAttempt.maxAnswerBody} characters) or the transport error, when it was sent and how long it ` +
          "took. Not a message of this merchant: 404 DELIVERY_NOT_FOUND."
      ),
    HttpApiEndpoint.post("redeliver", "/deliveries/:deliveryId/redeliver", {
      params: deliveryId,
      success: HttpApiSchema.Accepted.annotate({ description: "Queued again, due now; no body" }),
      error: Problem.responses("DELIVERY_NOT_FOUND")
    })
      .annotate(Access, { permission: "deliveries" })
      .annotate(OpenApi.Summary, "Redeliver a failed webhook message (deliveries)")
      .annotate(OpenApi.Description, "As the admin's redeliver. Not a failed message of this merchant: 404 DELIVERY_NOT_FOUND."),
    HttpApiEndpoint.post("webhookTest", "/webhook-test", {
      success: DeliveryAttempt.PingResult,
      error: Problem.responses("WEBHOOK_URL_NOT_SET")
    })
      .annotate(Access, { permission: "deliveries" })
      .annotate(OpenApi.Summary, "Send a signed webhook.test now and see the answer (deliveries)")
      .annotate(
        OpenApi.Description,
        "Sends the signed `webhook.test` at once (to the URL the admin's ping uses) and answers the operator's " +
          "answer: status, body, duration, or the error. It is recorded as a delivery (listed, with its attempt); " +
          "one that failed is retried like any message. No webhook URL: 422 WEBHOOK_URL_NOT_SET."
      ),
    HttpApiEndpoint.get("revenueShare", "/revenue-share", {
      query: optionalRange,
      success: RevenueShareReport.RevenueShareReport,
      error: Problem.responses("REPORTS_BUSY", "REPORT_TIMEOUT")
    })
      .annotate(Access, { permission: "revenueShare" })
      .annotate(OpenApi.Summary, "Each party's part of the GGR of a period (revenue share)")
      .annotate(OpenApi.Description, "As the admin's `GET /merchants/{id}/revenue-share`. " + today)
  )
  .middleware(BackofficeAuth)
  .prefix("/api/v1.1/backoffice")
  .annotate(OpenApi.Title, "Back office: the merchant")
  .annotate(
    OpenApi.Description,
    "What a merchant's staff do (CONTRACT §9), for the session's merchant only: reports (`reports`), round " +
      "look-up (`rounds`), settings (`settings`), API keys (`keys`), secrets (`secrets`), webhook deliveries " +
      "(`deliveries`) and the revenue share (`revenueShare`). A role without the endpoint's permission: 403 FORBIDDEN."
  )
{}
