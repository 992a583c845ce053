import { HttpApi, OpenApi } from "effect/http-api"
import { AuditApi } from "./Audit.ts"
import { BackofficeApi, BackofficeSignInApi } from "./Backoffice.ts"
import { BackofficePageApi } from "./BackofficePage.ts"
import { BackofficeOpsApi } from "./BackofficeOps.ts"
import { DeliveriesApi } from "./Deliveries.ts"
import { FreeRoundsApi } from "./FreeRounds.ts"
import { CatalogueApi, GamesApi } from "./Games.ts"
import { GameSessionsApi } from "./GameSessions.ts"
import { MerchantsApi } from "./Merchants.ts"
import { PlayApi } from "./Play.ts"
import { ReportsApi } from "./Reports.ts"
import { SecretsApi } from "./Secrets.ts"
import { RevenueShareApi } from "./RevenueShare.ts"
import { RoundDetailsApi } from "./RoundDetails.ts"
import { SessionControlApi } from "./SessionControl.ts"
import { SettingsApi } from "./Settings.ts"
import { SystemApi } from "./System.ts"
import { withExamples } from "./Document.ts"
import { withWebhooks } from "./WebhooksDoc.ts"

const description = `The Operator Gateway: merchant accounts, the game catalogue, signed launch URLs, game sessions
and the seamless wallet.

Beyond the wallet: **round links** (every credit, refund and listed round carries \`roundDetailsUrl\`, a signed
link that never expires, showing the round and its provably fair proof: *Round links*); **callbacks** to the
merchant's \`callbackUrl\` (\`session.started\`, \`round.settled\`, \`session.ended\`: the \`webhooks\` section);
**retail shops** (\`shopId\` at launch, asked of the \`shopDetailsUrl\`; \`groupBy=shop\` in *Reports*);
**session control** (end a player's sessions at once: *Session control*); **free rounds** (*Free rounds*). How
these compare with other providers' gateways: \`docs/features.md\` in the repository.

Every error answers \`application/problem+json\` with \`{success: false, status, code, title, detail}\`.
Codes: VALIDATION_FAILED 400 (detail names the field; also malformed JSON), UNAUTHORIZED / SESSION_EXPIRED / SESSION_ENDED / INVALID_CREDENTIALS / TOTP_REQUIRED 401 (SESSION_ENDED: the operator ended the game session),
BET_REFUSED / INSUFFICIENT_FUNDS 402, FORBIDDEN / PASSWORD_CHANGE_REQUIRED 403,
GAME_NOT_FOUND / MERCHANT_NOT_FOUND / API_KEY_NOT_FOUND / DELIVERY_NOT_FOUND / ROUND_NOT_FOUND / TRANSACTION_NOT_FOUND / USER_NOT_FOUND / GRANT_NOT_FOUND / ROUTE_NOT_FOUND 404, METHOD_NOT_ALLOWED 405 (with \`allow\`), REQUEST_TIMEOUT 408 (a request's head or body did not arrive within \`HTTP_HEADERS_TIMEOUT_MS\` / \`HTTP_REQUEST_TIMEOUT_MS\`; the connection is closed),
EMAIL_TAKEN / TOKEN_ALREADY_USED / STATUS_CHANGE_REFUSED / AUTOPLAY_LIMIT_REACHED / NO_FREE_ROUNDS 409, GAME_RETIRED 410 (a round or a launch link of a game retired from the catalogue), PAYLOAD_TOO_LARGE 413, UNSUPPORTED_MEDIA_TYPE 415,
CURRENCY_MISMATCH / PLAYER_REJECTED / DETAILS_URL_NOT_SET / SHOP_REJECTED / SHOP_DETAILS_URL_NOT_SET 422, RATE_LIMITED 429 (with \`retry-after\`),
REPORTS_BUSY 429 (a report over the reports' budget; with \`retry-after\`),
INTERNAL_ERROR 500, OPERATOR_BAD_RESPONSE / WALLET_UNAVAILABLE / MAIL_FAILED 502, NOT_READY / SERVICE_UNAVAILABLE 503 (the database cannot be reached, or did not answer within \`DATABASE_STATEMENT_TIMEOUT_MS\` + 1 s; with \`retry-after\`),
REPORT_TIMEOUT 503 (a report's query ran past \`REPORTS_STATEMENT_TIMEOUT_MS\`; with \`retry-after\`),
OPERATOR_UNAVAILABLE 503 (the merchant's Details URL or wallet kept failing and its circuit breaker is open: launches and bets fail fast without calling it; with \`retry-after\`), OPERATOR_TIMEOUT 504.

Request bodies are at most \`MAX_BODY_BYTES\` (64 KiB by default): larger ones are 413 PAYLOAD_TOO_LARGE before
they are read; a request line and headers over 32 KiB are 431 HEADERS_TOO_LARGE. Every answer carries \`x-request-id\` (the client's, when it is a plain token of at most 128
characters, else a new UUID) and, unless it says otherwise, \`cache-control: no-store\`.`

/** The gateway's HTTP contract. */
export class Api extends HttpApi.make("operator-gateway")
  .add(MerchantsApi)
  .add(GamesApi)
  .add(CatalogueApi)
  .add(SettingsApi)
  .add(SystemApi)
  .add(DeliveriesApi)
  .add(SecretsApi)
  .add(AuditApi)
  .add(GameSessionsApi)
  .add(PlayApi)
  .add(ReportsApi)
  .add(RevenueShareApi)
  .add(BackofficeSignInApi)
  .add(BackofficeApi)
  .add(BackofficeOpsApi)
  .add(RoundDetailsApi)
  .add(SessionControlApi)
  .add(FreeRoundsApi)
  .add(BackofficePageApi)
  .annotateMerge(OpenApi.annotations({
    title: "Operator Gateway",
    version: "1.1.0",
    description,
    // `UNLICENSED` in package.json: no public licence. SPDX has no id for that; `LicenseRef-` names one of our own.
    license: { name: "Proprietary: all rights reserved", identifier: "LicenseRef-Proprietary" },
    // Relative: every path is absolute from the origin the document is fetched from (each deployment has its own).
    servers: [{ url: "/", description: "The gateway that serves this document" }]
  }))
  // Request bodies are closed, as the document says (`additionalProperties: false`): an unknown or misspelt
  // field is 400 VALIDATION_FAILED naming it, never silently ignored.
  .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error" })
  // The calls the gateway makes to operators, as the document's `webhooks` section (CONTRACT §8), then the
  // examples of every schema and the parameters' descriptions (Document.ts).
  .annotate(OpenApi.Transform, (spec) => withExamples(withWebhooks(spec)))
{}
