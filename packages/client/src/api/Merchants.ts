import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ApiKey, Merchant, MerchantSettings, Paging, Validation } from "@gateway/domain"
import { GamesQuery } from "./Games.ts"
import * as Problem from "./Problem.ts"
import { AdminAuth } from "./Security.ts"

const id = { id: Merchant.MerchantId }

/** How stake limits are given and kept, for the descriptions of both settings endpoints. */
export const stakeLimits =
  "minimumStake and maximumStake are amounts in major units of the merchant's currency, given as a JSON number " +
  "(`12.5`) or a decimal string (`\"12.50\"`) and answered as JSON numbers; each must be greater than 0, have no " +
  "more fraction digits than the currency has (EUR 2, JPY 0, KWD 3) and be at most the largest stake, 10^15 − 1 " +
  "minor units (9999999999999.99 in EUR), else 400 VALIDATION_FAILED naming the field. They are kept exactly and " +
  "compared with stakes in minor units, never rounded."

/** What the settings' URLs must be, for the descriptions of both settings endpoints. */
export const settingsUrls =
  "URLs the gateway calls (userDetailsUrl, shopDetailsUrl, the webhook URLs, callbackUrl) must not be or resolve " +
  "to a loopback, private, link-local or otherwise non-public address (400 VALIDATION_FAILED naming the field; a " +
  "name that does not resolve gets the same answer); the URLs the game page loads (logo1xUrl, logo2xUrl, " +
  "cupImageUrl, fontFamilyUrl) must be https. Both are relaxed with ALLOW_PRIVATE_OPERATOR_URLS (local development)."

/** The rule of the five revenue shares, for the description of the admin settings endpoint. */
export const revenueShares =
  "providerPercentProfit, superProviderPercentProfit, agentPercentProfit, merchantPercentProfit and " +
  "userPercentProfit are percentages of GGR (`GET /merchants/{id}/revenue-share`) and are set only here, by the " +
  "provider's admins: the operator's own `PUT /settings` refuses them with 403. A change that sets any of them " +
  "must leave the five adding up to at most 100, compared exactly on the decimals given, else 400 " +
  "VALIDATION_FAILED naming them."

/** Why an operator may read but not change its revenue shares, for the operator's own settings endpoint. */
export const ownRevenueShares =
  "providerPercentProfit, superProviderPercentProfit, agentPercentProfit, merchantPercentProfit and " +
  "userPercentProfit are the revenue shares (percentages of GGR) and are admin-only: a body that gives any of " +
  "them, a value or `null`, is refused with 403 FORBIDDEN naming the first, and nothing is saved. They are set " +
  "by the provider's admins (`PUT /merchants/{id}/settings`, bearer `write:users`); `GET /settings` reads them."

/** The query of the admin merchants list, with the contract's paging defaults. */
export const MerchantsQuery = {
  page: GamesQuery.page,
  limit: GamesQuery.limit,
  search: Schema.optionalKey(
    Schema.String.check(
      Schema.isMaxLength(Merchant.maxMerchantSearchLength, {
        message: `must be at most ${Merchant.maxMerchantSearchLength} characters`
      }),
      Validation.isStorableText
    ).annotate({ description: "case-insensitive part of the e-mail or company name, taken literally" })
  ),
  status: Schema.optionalKey(Merchant.AccountStatus.annotate({ description: "only merchants in this account status" }))
}

/** The answer of the admin merchants list. */
export class MerchantList extends Schema.Class<MerchantList>("@gateway/adapters-http/MerchantList")(Schema.Struct({
  data: Schema.Array(Merchant.Merchant).annotate({ description: "The merchants of this page, newest first" }),
  meta: Paging.PageMeta
}).annotate({
  identifier: "MerchantList",
  description: "The answer of the admin merchants list."
})) {}

/** The body of a status change. `closed` is final. */
export class StatusChange extends Schema.Class<StatusChange>("@gateway/adapters-http/StatusChange")(Schema.Struct({
  accountStatus: Merchant.AccountStatus.annotate({ description: "The new status: `active`, `suspended` or `closed` (final)" })
}).annotate({
  identifier: "StatusChange",
  description: "The body of a status change. `closed` is final."
})) {}

/** The optional body of a key issue (an empty body is `null`); the prefix defaults to `sv_live`. */
export const IssueApiKey = [
  Schema.Struct({
    prefix: Schema.optionalKey(ApiKey.ApiKeyPrefix).annotateKey({
      description: "`sv_live` (default) or `sv_test` (a key whose launches and rounds never move money)"
    })
  }).annotate({ identifier: "IssueApiKey", description: "The optional body of a key issue: the key's prefix" }),
  Schema.Null
] as const

/** A key just issued; the full `apiKey` is shown only here. */
export class IssuedApiKey extends Schema.Class<IssuedApiKey>("@gateway/adapters-http/IssuedApiKey")(Schema.Struct({
  apiKey: Schema.String.annotate({ description: "The key, shown only here: send it as `sv-api-key`" }),
  prefix: ApiKey.ApiKeyPrefix.annotateKey({ description: "`sv_live` or `sv_test`" }),
  slug: Schema.String.annotate({ description: "The key's public part, to name it when revoking it" }),
  createdAt: Schema.String.annotate({ description: "When the key was issued (ISO 8601, UTC)" })
}).annotate({
  identifier: "IssuedApiKey",
  description: "A key just issued; the full `apiKey` is shown only here."
})) {}

/** Merchant accounts: creation (the seed's `create`) and administration (bearer). */
export class MerchantsApi extends HttpApiGroup.make("merchants")
  .add(
    HttpApiEndpoint.post("create", "/create", {
      payload: Merchant.CreateMerchantRequest,
      success: Merchant.MerchantCreated.pipe(HttpApiSchema.status(201)),
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "EMAIL_TAKEN")
    })
      .annotate(OpenApi.Summary, "Create a merchant")
      .annotate(
        OpenApi.Description,
        "Creates an active merchant; country and currency come from the first country code. The generated " +
          "password, privateKey, encryptionKey and otpToken are shown in this answer only. Duplicate e-mail " +
          "(case-insensitive): 409 EMAIL_TAKEN. Scope `write:users`."
      ),
    HttpApiEndpoint.get("list", "/merchants", {
      query: MerchantsQuery,
      success: MerchantList,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN")
    })
      .annotate(OpenApi.Summary, "List merchants (without secrets; scope `read:users`)")
      .annotate(
        OpenApi.Description,
        "A page of merchants, newest first (highest id first), each as `GET /merchants/{id}` answers it. " +
          "`search` matches part of the e-mail or company name, case-insensitively and literally (`%`, `_` are " +
          "plain characters); `status` keeps one account status. A neighbour page that does not exist is 0. " +
          "Bad parameters: 400 VALIDATION_FAILED."
      ),
    HttpApiEndpoint.get("get", "/merchants/:id", {
      params: id,
      success: Merchant.Merchant,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "MERCHANT_NOT_FOUND")
    }).annotate(OpenApi.Summary, "Read a merchant (without secrets; scope `read:users`)"),
    HttpApiEndpoint.put("changeSettings", "/merchants/:id/settings", {
      params: id,
      payload: MerchantSettings.SettingsChange,
      success: MerchantSettings.MerchantSettings,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "MERCHANT_NOT_FOUND")
    })
      .annotate(OpenApi.Summary, "Change a merchant's settings")
      .annotate(
        OpenApi.Description,
        "Each key given is set, `null` clears it, an absent key is kept. URLs must be absolute http(s); " +
          "minimumStake ≤ maximumStake (else 400 VALIDATION_FAILED naming minimumStake). " + stakeLimits + " " +
          revenueShares + " " + settingsUrls
      ),
    HttpApiEndpoint.patch("changeStatus", "/merchants/:id/status", {
      params: id,
      payload: StatusChange,
      success: Merchant.Merchant,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "MERCHANT_NOT_FOUND", "STATUS_CHANGE_REFUSED")
    })
      .annotate(OpenApi.Summary, "Change a merchant's account status")
      .annotate(OpenApi.Description, "`closed` is final: leaving it answers 409 STATUS_CHANGE_REFUSED."),
    HttpApiEndpoint.post("issueApiKey", "/merchants/:id/api-keys", {
      params: id,
      payload: IssueApiKey,
      success: IssuedApiKey.pipe(HttpApiSchema.status(201)),
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "MERCHANT_NOT_FOUND")
    })
      .annotate(OpenApi.Summary, "Issue an API key (the full key is shown only in this answer)")
      .annotate(OpenApi.Description, "The body is optional: none (or `null`) issues an `sv_live` key.")
      // The body may be left out (it decodes as null), so the document must not call it required.
      .annotate(OpenApi.Transform, (op) => op.requestBody === undefined ? op : { ...op, requestBody: { ...op.requestBody, required: false } }),
    HttpApiEndpoint.delete("revokeApiKey", "/merchants/:id/api-keys/:slug", {
      params: { ...id, slug: Schema.String.check(Schema.isMaxLength(64), Validation.isStorableText) },
      success: HttpApiSchema.NoContent.annotate({ description: "Revoked: the key is refused from now on; no body" }),
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "MERCHANT_NOT_FOUND", "API_KEY_NOT_FOUND")
    })
      .annotate(OpenApi.Summary, "Revoke an API key")
      .annotate(OpenApi.Description, "The key fails with 401 at once. Unknown slug: 404 API_KEY_NOT_FOUND.")
  )
  .middleware(AdminAuth)
  .prefix("/api/v1.1/operator-api")
  .annotate(OpenApi.Title, "Merchants")
  .annotate(
    OpenApi.Description,
    "Merchant accounts for the provider's admins (bearer JWT; `read:users` to read, `write:users` to " +
      "write): create a merchant, list and read them, change settings and account " +
      "status, issue and revoke API keys."
  )
{}
