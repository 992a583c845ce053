import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import type { ApiKey, Auth, KeyAccess, Merchant } from "@gateway/domain"
import * as Problem from "./Problem.ts"

/** The verified claims of an admin bearer token. */
export interface AdminClaims {
  readonly subject: string | undefined
  readonly scopes: ReadonlySet<Auth.Scope | string>
}

/** The admin behind the current request's bearer token. */
export class CurrentAdmin extends Context.Service<CurrentAdmin, AdminClaims>()(
  "@gateway/client/api/Security/CurrentAdmin"
) {}

/** The merchant behind the current request's `sv-api-key`. */
export class CurrentMerchant extends Context.Service<CurrentMerchant, Merchant.Merchant>()(
  "@gateway/client/api/Security/CurrentMerchant"
) {}

const bearer = HttpApiSecurity.bearer.pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "JWT (HS256 with the server's secret, or RS256/ES256/EdDSA from its JWKS). `exp` required, at most " +
      "`AUTH_MAX_TOKEN_LIFETIME_SECONDS` (default 86400) after now and after `iat` when present; an `iat` in the " +
      "future is refused (60 s of clock skew allowed). Scope claim (space separated): `write:users` for writes, " +
      "`read:users` for reads. Refused tokens are failed authentications of the client address (429 once it has " +
      "spent them; a valid token is never refused for them)."
  ),
  HttpApiSecurity.annotate(OpenApi.Format, "JWT")
)

const accessToken = HttpApiSecurity.apiKey({ in: "header", key: "access-token" }).pipe(
  HttpApiSecurity.annotate(OpenApi.Description, "The same JWT as `Authorization: Bearer`, in the `access-token` header.")
)

const svApiKey = HttpApiSecurity.apiKey({ in: "header", key: "sv-api-key" }).pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "An operator API key `<Prefix>.<Key>.<Slug>` (prefix `sv_live` or `sv_test`), issued through the admin API. " +
      "Rate limited per key, charged once the key verifies (token bucket, per server instance): beyond it, 429 " +
      "`RATE_LIMITED` with `retry-after` in seconds (detail: rate limit reached for this API key). Failed attempts " +
      "(401) are counted per client address, after the key was checked: an address that has spent them gets 429 " +
      "(detail: too many failed authentications from this address) for its failing keys only; a valid key from " +
      "the same address is still answered. `sv_test` keys are for integration testing and never touch real money: " +
      "they list games, launch demo mode and read their settings; a real-mode launch, every change and every read " +
      "of real-money data (rounds, transactions, reports, CSV) is 403 `FORBIDDEN` naming what to use instead (an " +
      "`sv_live` key)."
  )
)

const authErrors = [
  Problem.response(401, ["UNAUTHORIZED"]),
  Problem.response(403, ["FORBIDDEN"]),
  Problem.response(429, ["RATE_LIMITED"])
]

/**
 * Admin endpoints: a bearer JWT (or the same JWT in `access-token`). Reads
 * need the `read:users` scope, every other method `write:users`.
 */
export class AdminAuth extends HttpApiMiddleware.Service<AdminAuth, { provides: CurrentAdmin }>()(
  "@gateway/client/api/Security/AdminAuth",
  { security: { bearer, accessToken }, error: authErrors }
) {}

/**
 * What an operator endpoint does, for the rule of `sv_test` keys
 * ({@link KeyAccess.authorise}), which OperatorAuth applies to every request
 * before the handler runs. An endpoint under OperatorAuth without it counts
 * as a write (or, for a GET, a read of real-money data): live keys only.
 */
export const KeyOperation = Context.Reference<KeyAccess.KeyOperation | undefined>(
  "@gateway/client/api/Security/KeyOperation",
  { defaultValue: () => undefined }
)

/** The prefix of the current request's `sv-api-key`: `sv_test` keys launch demo mode only. */
export class CurrentKeyPrefix extends Context.Service<CurrentKeyPrefix, ApiKey.ApiKeyPrefix>()(
  "@gateway/client/api/Security/CurrentKeyPrefix"
) {}

/** Operator endpoints: an active merchant's `sv-api-key`. */
export class OperatorAuth extends HttpApiMiddleware.Service<OperatorAuth, { provides: CurrentMerchant | CurrentKeyPrefix }>()(
  "@gateway/client/api/Security/OperatorAuth",
  { security: { svApiKey }, error: authErrors }
) {}
