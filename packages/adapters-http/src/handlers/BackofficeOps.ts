import { DateTime, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  ApiKeyRepo,
  AuditLog,
  BackofficeSecrets,
  BackofficeSignIn,
  BackofficeStore,
  changeSettingsAudited,
  DeliveryAttempt,
  DeliveryQueue,
  exportSummary,
  issueApiKeyAudited,
  lookUpRounds,
  MerchantCredentials,
  MerchantRepo,
  OperatorUrlPolicy,
  periodOr,
  Report,
  reportSummary,
  Reports,
  revealSecret,
  revenueShare,
  RevenueShare,
  revokeApiKeyAudited,
  rotateSecret,
  RoundLinks,
  Wallet,
  WebhookDesk
} from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import { CurrentUser } from "@gateway/client/api/Backoffice"
import { BackofficeApiKey, BackofficeApiKeys } from "@gateway/client/api/BackofficeOps"
import { Deliveries, maxListed } from "@gateway/client/api/Deliveries"
import * as Problem from "@gateway/client/api/Problem"
import { wantsCsv } from "../csv/Accept.ts"
import * as ReportsCsv from "../csv/ReportsCsv.ts"
import * as Ports from "../Ports.ts"
import * as Actor from "./Actor.ts"
import { issuedOf } from "./Merchants.ts"
import { withRoundLinks } from "./Reports.ts"

/**
 * A URL as shown with an attempt: its query's values replaced by `…` and no
 * user or password, since operators put tokens there (no query string in logs either).
 */
const shownUrl = (url: string): string => {
  const parsed = URL.parse(url)
  if (parsed === null) return url.split("?")[0] ?? ""
  for (const key of [...parsed.searchParams.keys()]) parsed.searchParams.set(key, "…")
  parsed.username = ""
  parsed.password = ""
  return parsed.toString()
}

const iso = (at: DateTime.Utc | undefined) => at === undefined ? undefined : DateTime.formatIso(at)

/**
 * What a merchant's staff do in the back office, always for the session's
 * merchant (never an id from the client): the same use cases as the
 * operator and admin APIs, audited with the user's e-mail and address.
 */
export const BackofficeOpsLive = HttpApiBuilder.group(
  Api,
  "backofficeOps",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(
      MerchantRepo, MerchantCredentials, ApiKeyRepo, OperatorUrlPolicy, AuditLog, Reports, BackofficeStore, BackofficeSecrets
    )
    const merchants = yield* MerchantRepo
    const keys = yield* ApiKeyRepo
    const deliveries = yield* DeliveryQueue
    const desk = yield* WebhookDesk
    const linked = withRoundLinks(yield* RoundLinks)
    const actor = yield* Actor.makeBackoffice
    const merchant = Effect.flatMap(CurrentUser, (user) => merchants.findById(user.merchantId))
    const merchantId = Effect.map(CurrentUser, (user) => user.merchantId)
    type SummaryQuery = {
      readonly groupBy: Report.GroupBy
      readonly page: number
      readonly limit: number
      readonly shopId?: string
      readonly from?: Date
      readonly to?: Date
    }
    const summaryCsv = Effect.fnUntraced(function*({ groupBy, page: _page, limit: _limit, from, to, ...filter }: SummaryQuery) {
      const found = yield* merchant
      const range = { ...filter, ...(yield* periodOr({ from, to })) }
      return ReportsCsv.summary(range, groupBy, found.currency, yield* exportSummary(found, range, groupBy))
    })
    const summary = Effect.fnUntraced(function*({ groupBy, page, limit, from, to, ...filter }: SummaryQuery) {
      const found = yield* merchant
      return yield* reportSummary(found, { ...filter, ...(yield* periodOr({ from, to })) }, groupBy, { page, limit })
    })
    return handlers.handleAll({
      summary: ({ query, request }) =>
        wantsCsv(request.headers["accept"])
          ? summaryCsv(query).pipe(provide, Effect.mapError(Problem.fromDomain))
          : summary(query).pipe(provide, Effect.mapError(Problem.fromDomain)),
      summaryCsv: ({ query }) => summaryCsv(query).pipe(provide, Effect.mapError(Problem.fromDomain)),
      rounds: ({ query: { page, limit, ...lookUp } }) =>
        Effect.gen(function*() {
          return linked(yield* lookUpRounds(yield* merchant, lookUp, { page, limit }))
        }).pipe(provide, Effect.mapError(Problem.fromDomain)),
      settings: () => Effect.map(merchant, (found) => found.MerchantSettings).pipe(Effect.mapError(Problem.fromDomain)),
      changeSettings: ({ payload }) =>
        Effect.gen(function*() {
          const refused = RevenueShare.refuseOwnShareChange(payload)
          if (refused !== undefined) return yield* refused
          return yield* changeSettingsAudited(yield* merchantId, payload, yield* actor)
        }).pipe(provide, Effect.mapError(Problem.fromDomain)),
      apiKeys: () =>
        Effect.gen(function*() {
          const listed = yield* keys.list(yield* merchantId, maxListed)
          return new BackofficeApiKeys({
            data: listed.map((key) => {
              const revokedAt = iso(key.revokedAt)
              const lastUsedAt = iso(key.lastUsedAt)
              return new BackofficeApiKey({
                slug: key.slug,
                prefix: key.prefix,
                createdAt: DateTime.formatIso(key.createdAt),
                ...(revokedAt === undefined ? {} : { revokedAt }),
                ...(lastUsedAt === undefined ? {} : { lastUsedAt })
              })
            })
          })
        }),
      issueApiKey: ({ payload }) =>
        Effect.gen(function*() {
          return issuedOf(yield* issueApiKeyAudited(yield* merchantId, payload?.prefix ?? "sv_live", yield* actor))
        }).pipe(provide, Effect.mapError(Problem.fromDomain)),
      revokeApiKey: ({ params }) =>
        Effect.gen(function*() {
          const revoked = yield* revokeApiKeyAudited(yield* merchantId, params.slug, yield* actor).pipe(
            provide,
            Effect.mapError(Problem.fromDomain)
          )
          if (!revoked) return yield* Problem.make("API_KEY_NOT_FOUND", "this merchant has no live API key with this slug")
        }),
      revealSecret: ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* CurrentUser
          yield* BackofficeSignIn.recheckPassword(user, payload.password)
          return yield* revealSecret(user.merchantId, yield* actor)
        }).pipe(provide, Effect.mapError(Problem.fromDomain)),
      rotateSecret: ({ payload }) =>
        Effect.gen(function*() {
          return yield* rotateSecret(yield* merchantId, payload, yield* actor)
        }).pipe(provide, Effect.mapError(Problem.fromDomain)),
      deliveries: ({ query }) =>
        Effect.gen(function*() {
          return new Deliveries({ data: yield* deliveries.list(yield* merchantId, query.status, maxListed) })
        }),
      delivery: ({ params }) =>
        Effect.gen(function*() {
          const id = yield* merchantId
          const stored = yield* deliveries.find(id, params.deliveryId)
          if (stored === undefined) return yield* Problem.make("DELIVERY_NOT_FOUND", "this merchant has no webhook message with this id")
          const attemptLog = yield* Effect.forEach(stored.attempts, (attempt) =>
            Effect.map(desk.requestHeaders(id, params.deliveryId, attempt.at, stored.body), (headers) =>
              new DeliveryAttempt.DeliveryAttempt({
                at: DateTime.makeUnsafe(attempt.at),
                durationMs: attempt.durationMs,
                request: new DeliveryAttempt.AttemptRequest({ method: "POST", url: shownUrl(attempt.url), headers: { ...headers }, body: stored.body }),
                ...(attempt.status === undefined ? {} : {
                  answer: new DeliveryAttempt.AttemptAnswer({
                    status: attempt.status,
                    headers: { ...attempt.headers },
                    body: attempt.body ?? ""
                  })
                }),
                ...(attempt.error === undefined ? {} : { error: attempt.error })
              })))
          return new DeliveryAttempt.DeliveryDetail({ ...stored.listed, body: stored.body, attemptLog })
        }),
      redeliver: ({ params }) =>
        Effect.gen(function*() {
          if (!(yield* deliveries.redeliver(yield* merchantId, params.deliveryId))) {
            return yield* Problem.make("DELIVERY_NOT_FOUND", "this merchant has no failed webhook message with this id")
          }
        }),
      webhookTest: () =>
        Effect.gen(function*() {
          const found = yield* merchant
          const url = Wallet.webhookUrlFor(found.MerchantSettings, "webhook.test")
          if (url === undefined) {
            return yield* Problem.make("WEBHOOK_URL_NOT_SET", "no webhook URL to ping: set webhookUrl (or creditWebhookUrl) in the settings")
          }
          return yield* desk.ping(found.id, url)
        }).pipe(Effect.catchTag("MerchantNotFound", (error) => Problem.fromDomain(error))),
      revenueShare: ({ query }) =>
        Effect.gen(function*() {
          return yield* revenueShare(yield* merchantId, yield* periodOr(query))
        }).pipe(provide, Effect.mapError(Problem.fromDomain))
    })
  })
)
