import { Data, Effect, Schema, SchemaTransformation } from "effect"
import { HttpServerRespondable, HttpServerResponse } from "effect/http"
import { HttpApiSchema } from "effect/http-api"
import type {
  Auth,
  Backoffice,
  Autoplay,
  Currency,
  FreeRound,
  Game,
  GameSession,
  LaunchToken,
  Merchant,
  Money,
  Operator,
  Player,
  RateLimit,
  Report,
  Round,
  SessionControl,
  Shop,
  Validation,
  Wallet
} from "@gateway/domain"
import type { MailFailed } from "@gateway/domain/ports/Mailer"

/** The media type of every error answer (RFC 9457). */
export const contentType = "application/problem+json"

/** Every status an error answer can have, with its title. */
export const titles = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout"
} as const
export type ProblemStatus = keyof typeof titles

/** The stable codes of error answers, each with its status. */
export const codes = {
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  SESSION_EXPIRED: 401,
  INVALID_CREDENTIALS: 401,
  TOTP_REQUIRED: 401,
  SESSION_ENDED: 401,
  BET_REFUSED: 402,
  INSUFFICIENT_FUNDS: 402,
  FORBIDDEN: 403,
  PASSWORD_CHANGE_REQUIRED: 403,
  GAME_NOT_FOUND: 404,
  MERCHANT_NOT_FOUND: 404,
  API_KEY_NOT_FOUND: 404,
  DELIVERY_NOT_FOUND: 404,
  ROUND_NOT_FOUND: 404,
  TRANSACTION_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  GRANT_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  EMAIL_TAKEN: 409,
  TOKEN_ALREADY_USED: 409,
  STATUS_CHANGE_REFUSED: 409,
  AUTOPLAY_LIMIT_REACHED: 409,
  NO_FREE_ROUNDS: 409,
  GAME_RETIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CURRENCY_MISMATCH: 422,
  PLAYER_REJECTED: 422,
  DETAILS_URL_NOT_SET: 422,
  SHOP_REJECTED: 422,
  SHOP_DETAILS_URL_NOT_SET: 422,
  WEBHOOK_URL_NOT_SET: 422,
  RATE_LIMITED: 429,
  REPORTS_BUSY: 429,
  INTERNAL_ERROR: 500,
  OPERATOR_BAD_RESPONSE: 502,
  WALLET_UNAVAILABLE: 502,
  MAIL_FAILED: 502,
  NOT_READY: 503,
  SERVICE_UNAVAILABLE: 503,
  REPORT_TIMEOUT: 503,
  OPERATOR_UNAVAILABLE: 503,
  OPERATOR_TIMEOUT: 504
} as const satisfies Record<string, ProblemStatus>
export type ProblemCode = keyof typeof codes

/**
 * An error answer: `{success: false, status, code, title, detail}` as
 * `application/problem+json`. It renders itself, so a Problem that an
 * endpoint did not declare still answers correctly.
 */
export class Problem extends Data.TaggedError("Problem")<{
  readonly status: ProblemStatus
  readonly code: ProblemCode
  readonly title: string
  readonly detail: string
  readonly retryAfterSeconds?: number | undefined
}> {
  [HttpServerRespondable.symbol]() {
    return Effect.succeed(toResponse(this))
  }
}

/** A Problem of a code, with the title of its status. */
export const make = (code: ProblemCode, detail: string, retryAfterSeconds?: number): Problem => {
  const status = codes[code]
  return new Problem({ status, code, title: titles[status], detail, retryAfterSeconds })
}

/** The wire body of a Problem. */
export const body = (problem: Problem) => ({
  success: false as const,
  status: problem.status,
  code: problem.code,
  title: problem.title,
  detail: problem.detail
})

/** The `application/problem+json` response of a Problem (with `retry-after` when it has one). */
export const toResponse = (problem: Problem): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe(body(problem), {
    status: problem.status,
    contentType,
    ...(problem.retryAfterSeconds === undefined
      ? {}
      : { headers: { "retry-after": String(problem.retryAfterSeconds) } })
  })

/** Every error of the domain that reaches the HTTP edge. */
export type DomainError =
  | Validation.ValidationFailed
  | Auth.Unauthorized
  | Auth.Forbidden
  | Game.GameNotFound
  | Game.GameRetired
  | Merchant.MerchantNotFound
  | Merchant.EmailTaken
  | Merchant.StatusChangeRefused
  | LaunchToken.TokenAlreadyUsed
  | Currency.CurrencyMismatch
  | Player.PlayerRejected
  | Player.DetailsUrlNotSet
  | Shop.ShopRejected
  | Shop.ShopDetailsUrlNotSet
  | RateLimit.RateLimited
  | Operator.OperatorBadResponse
  | Operator.OperatorTimeout
  | Operator.OperatorUnavailable
  | Money.InvalidAmount
  | GameSession.SessionExpired
  | SessionControl.SessionEnded
  | Autoplay.AutoplayLimitReached
  | Round.RoundNotFound
  | Report.TransactionNotFound
  | Report.ReportsBusy
  | Report.ReportTimedOut
  | Wallet.BetRefused
  | Wallet.InsufficientFunds
  | Wallet.WalletUnavailable
  | Wallet.WebhookUrlNotSet
  | Backoffice.InvalidCredentials
  | Backoffice.TotpRequired
  | Backoffice.PasswordChangeRequired
  | MailFailed
  | FreeRound.NoFreeRounds
  | FreeRound.GrantNotFound

const codeOfTag: { readonly [K in DomainError["_tag"]]: ProblemCode } = {
  ValidationFailed: "VALIDATION_FAILED",
  InvalidAmount: "VALIDATION_FAILED",
  Unauthorized: "UNAUTHORIZED",
  Forbidden: "FORBIDDEN",
  GameNotFound: "GAME_NOT_FOUND",
  GameRetired: "GAME_RETIRED",
  MerchantNotFound: "MERCHANT_NOT_FOUND",
  EmailTaken: "EMAIL_TAKEN",
  StatusChangeRefused: "STATUS_CHANGE_REFUSED",
  TokenAlreadyUsed: "TOKEN_ALREADY_USED",
  CurrencyMismatch: "CURRENCY_MISMATCH",
  PlayerRejected: "PLAYER_REJECTED",
  DetailsUrlNotSet: "DETAILS_URL_NOT_SET",
  ShopRejected: "SHOP_REJECTED",
  ShopDetailsUrlNotSet: "SHOP_DETAILS_URL_NOT_SET",
  RateLimited: "RATE_LIMITED",
  OperatorBadResponse: "OPERATOR_BAD_RESPONSE",
  OperatorTimeout: "OPERATOR_TIMEOUT",
  OperatorUnavailable: "OPERATOR_UNAVAILABLE",
  SessionExpired: "SESSION_EXPIRED",
  SessionEnded: "SESSION_ENDED",
  AutoplayLimitReached: "AUTOPLAY_LIMIT_REACHED",
  RoundNotFound: "ROUND_NOT_FOUND",
  TransactionNotFound: "TRANSACTION_NOT_FOUND",
  ReportsBusy: "REPORTS_BUSY",
  ReportTimedOut: "REPORT_TIMEOUT",
  BetRefused: "BET_REFUSED",
  InsufficientFunds: "INSUFFICIENT_FUNDS",
  WalletUnavailable: "WALLET_UNAVAILABLE",
  WebhookUrlNotSet: "WEBHOOK_URL_NOT_SET",
  InvalidCredentials: "INVALID_CREDENTIALS",
  TotpRequired: "TOTP_REQUIRED",
  PasswordChangeRequired: "PASSWORD_CHANGE_REQUIRED",
  MailFailed: "MAIL_FAILED",
  NoFreeRounds: "NO_FREE_ROUNDS",
  GrantNotFound: "GRANT_NOT_FOUND"
}

/** The one mapping from domain errors (by `_tag`) to status and code; the detail is the error's message. */
export const fromDomain = (error: DomainError): Problem =>
  make(
    codeOfTag[error._tag],
    error.message,
    error._tag === "RateLimited" || error._tag === "ReportsBusy" || error._tag === "ReportTimedOut" ||
      error._tag === "OperatorUnavailable"
      ? error.retryAfterSeconds
      : undefined
  )

/** A real-looking `detail` of each code, for the document's examples. */
const details: Record<ProblemCode, string> = {
  VALIDATION_FAILED: "limit: must be an integer from 1 to 100",
  UNAUTHORIZED: "missing or invalid credentials",
  SESSION_EXPIRED: "the game session has expired; launch the game again",
  INVALID_CREDENTIALS: "wrong e-mail or password",
  TOTP_REQUIRED: "this account signs in with a second factor: send totpCode (the 6 digits of the authenticator app)",
  PASSWORD_CHANGE_REQUIRED: "change the generated password first (POST /api/v1.1/backoffice/password)",
  USER_NOT_FOUND: "no back-office user with id 17 for this merchant",
  MAIL_FAILED: "the mail could not be sent: SMTP error ECONNREFUSED",
  SESSION_ENDED: "the casino ended this game session; open the game again from the casino's site",
  BET_REFUSED: "the operator refused the debit",
  INSUFFICIENT_FUNDS: "the player's balance is lower than the stake",
  FORBIDDEN: "the token lacks the scope write:users",
  GAME_NOT_FOUND: "no game with id 'odd-evens'",
  MERCHANT_NOT_FOUND: "no merchant with id 4242",
  API_KEY_NOT_FOUND: "no API key with slug 'k3y5lug42' for this merchant",
  DELIVERY_NOT_FOUND: "no failed delivery with id 'msg_4a6b8c0d-2e4f-4a1b-9c3d-5e6f7a8b9c0d' for this merchant",
  ROUND_NOT_FOUND: "no round with id '7c1e9a3b-5d2f-4e6a-8b0c-1d3e5f7a9b2c' in this session",
  TRANSACTION_NOT_FOUND: "no transaction with id 'msg_9d2c4e1a-5b7f-4c3d-8e9a-1b2c3d4e5f60' for this merchant",
  ROUTE_NOT_FOUND: "no route GET /api/v1.1/operator-api/gamez",
  METHOD_NOT_ALLOWED: "DELETE is not allowed here",
  EMAIL_TAKEN: "a merchant with this email exists already",
  TOKEN_ALREADY_USED: "this launch link was used already; ask the operator for a new one",
  NO_FREE_ROUNDS: "no free rounds left for this player and game",
  GRANT_NOT_FOUND: "no free-round grant with id '3f6c1a2b-7d4e-4b8a-9c0d-1e2f3a4b5c6d' for this merchant",
  STATUS_CHANGE_REFUSED: "accountStatus cannot change from 'closed' to 'active': closed is final",
  AUTOPLAY_LIMIT_REACHED: "autoplay has played its rounds or reached its loss limit; start autoplay again to go on",
  GAME_RETIRED: "the game 'odd-even' was retired from the catalogue",
  PAYLOAD_TOO_LARGE: "the body is larger than 65536 bytes",
  UNSUPPORTED_MEDIA_TYPE: "the body must be application/json",
  CURRENCY_MISMATCH: "the player's currency USD is not the merchant's EUR",
  PLAYER_REJECTED: "the operator does not accept this player",
  DETAILS_URL_NOT_SET: "the merchant has no userDetailsUrl",
  SHOP_REJECTED: "the operator reports the shop as blocked",
  SHOP_DETAILS_URL_NOT_SET: "the merchant has no shopDetailsUrl; set it in MerchantSettings before launches with a shopId",
  WEBHOOK_URL_NOT_SET: "the merchant has no webhookUrl",
  RATE_LIMITED: "too many requests; try again in 2 s",
  REPORTS_BUSY: "too many reports are running; try again in 2 s",
  INTERNAL_ERROR: "an unexpected error; the request id is in x-request-id",
  OPERATOR_BAD_RESPONSE: "the operator's Details URL answered HTTP 500",
  WALLET_UNAVAILABLE: "the operator's wallet did not answer the debit",
  NOT_READY: "the database is not reachable",
  SERVICE_UNAVAILABLE: "the database is not reachable; try again",
  REPORT_TIMEOUT: "the report took longer than 10 s; ask for a shorter period",
  OPERATOR_TIMEOUT: "the operator's Details URL did not answer within 5 s",
  OPERATOR_UNAVAILABLE: "the operator's system keeps failing, so calls to it are paused; retry after 27 s"
}

const isProblemOf = (status: ProblemStatus, accepted: ReadonlyArray<ProblemCode>) => (u: unknown): u is Problem =>
  u instanceof Problem && u.status === status && accepted.includes(u.code)

/** The `retry-after` of a 429 or 503 that carries none of its own. */
export const defaultRetryAfterSeconds = 2

const declare = (status: ProblemStatus, accepted: ReadonlyArray<ProblemCode>): Schema.Codec<Problem, unknown> => {
  const [only] = accepted
  const Body = Schema.Struct({
    success: Schema.Literal(false).annotate({ description: "Always `false` in an error answer" }),
    status: Schema.Literal(status).annotate({ description: "The HTTP status, repeated" }),
    code: (accepted.length === 1 && only !== undefined ? Schema.Literal(only) : Schema.Literals(accepted)).annotate({
      description: "The stable code of the error: branch on it, not on `title` or `detail`"
    }),
    title: Schema.String.annotate({ description: "The status's reason phrase" }),
    detail: Schema.String.annotate({ description: "What went wrong, for people: names the field or the limit" })
  }).annotate({
    examples: accepted.map((code) => ({ success: false, status, code, title: titles[status], detail: details[code] }))
  })
  const description = `${titles[status]}: ${accepted.join(", ")}`
  const encode = (problem: Problem) => ({ ...body(problem), status, code: problem.code })
  if (status !== 429 && status !== 503) {
    return Body.pipe(
      Schema.decodeTo(
        Schema.declare(isProblemOf(status, accepted)),
        SchemaTransformation.transform({ decode: (wire) => new Problem({ ...wire }), encode })
      ),
      HttpApiSchema.status(status),
      HttpApiSchema.asJson({ contentType })
    ).annotate({ description })
  }
  // A 429 or 503 tells the client when to try again: the Problem's own `retry-after`, or the default one.
  return Schema.declare(isProblemOf(status, accepted)).pipe(
    HttpApiSchema.encodeToWithHeaders({
      body: Body.pipe(HttpApiSchema.status(status), HttpApiSchema.asJson({ contentType })).annotate({ description }),
      headers: { "retry-after": Schema.NumberFromString.annotate({ description: "seconds to wait before trying again" }) }
    }, {
      decode: ({ body: wire, headers }) => new Problem({ ...wire, retryAfterSeconds: headers["retry-after"] }),
      encode: (problem) => ({
        body: encode(problem),
        headers: { "retry-after": problem.retryAfterSeconds ?? defaultRetryAfterSeconds }
      })
    })
  )
}

const declared = new Map<string, ReturnType<typeof declare>>()
const order = Object.keys(codes)

/**
 * The declaration of one error status of an endpoint: the problem+json body
 * with `code` limited to `accepted`, described in OpenAPI with those codes.
 * The same status and codes give the same schema, so an endpoint and its
 * security middleware that both declare 401 UNAUTHORIZED document it once
 * (not an `anyOf` of two equal schemas).
 */
export const response = (status: ProblemStatus, accepted: ReadonlyArray<ProblemCode>) => {
  const sorted = [...new Set(accepted)].sort((a, b) => order.indexOf(a) - order.indexOf(b))
  const key = `${status} ${sorted.join(" ")}`
  const known = declared.get(key)
  if (known !== undefined) return known
  const made = declare(status, sorted)
  declared.set(key, made)
  return made
}

/**
 * What the launch rules asked of the operator may answer (CONTRACT §3, §11): at launch, and again when the link is
 * redeemed or resumed (§6).
 */
export const launchRuleProblems = [
  "PLAYER_REJECTED",
  "CURRENCY_MISMATCH",
  "DETAILS_URL_NOT_SET",
  "SHOP_REJECTED",
  "SHOP_DETAILS_URL_NOT_SET",
  "OPERATOR_BAD_RESPONSE",
  "OPERATOR_TIMEOUT",
  "OPERATOR_UNAVAILABLE"
] as const satisfies ReadonlyArray<ProblemCode>

/**
 * The error statuses of an endpoint from the codes it can answer with, one declaration per status. An endpoint
 * that can answer 401 can also answer 429 `RATE_LIMITED`: failed authentications are charged to the client's
 * address (CONTRACT §2).
 */
export const responses = (...accepted: ReadonlyArray<ProblemCode>) => {
  const byStatus = new Map<ProblemStatus, Array<ProblemCode>>()
  const limited = accepted.includes("UNAUTHORIZED") ? ["RATE_LIMITED" as const] : []
  for (const code of [...accepted, ...limited, "VALIDATION_FAILED" as const]) {
    const list = byStatus.get(codes[code]) ?? []
    if (!list.includes(code)) list.push(code)
    byStatus.set(codes[code], list)
  }
  return [...byStatus].map(([status, list]) => response(status, list))
}
