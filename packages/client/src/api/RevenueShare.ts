import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Merchant, Report, RevenueShareReport } from "@gateway/domain"
import { MerchantsQuery } from "./Merchants.ts"
import * as Problem from "./Problem.ts"
import { range } from "./Reports.ts"
import { AdminAuth } from "./Security.ts"

/** How a GGR is split, for the descriptions of both endpoints. */
const rule = "The GGR is that of the GGR summary (`GET /reports/summary`): bets − wins − refunds of the merchant's " +
  "real-money rounds created in [`from`, `to`) (at most " + Report.maxRangeDays + " days), from the ledger, in the " +
  "merchant's currency. Each party's part is its `…PercentProfit` setting as a percentage of that GGR, rounded " +
  "toward zero to the currency's minor unit (a setting not set is 0); `remainder` = ggr − Σ parts, so the parts " +
  "and the remainder add up to the GGR exactly. A negative GGR (the players won) splits the same way: every part " +
  "and the remainder are then ≤ 0. The percentages are the merchant's settings when the report is asked, not " +
  "those in force during the period. Shares stored before their sum was checked may exceed 100: they are then " +
  "capped in party order (provider, superProvider, agent, merchant, user; each gets at most what the ones before " +
  "it left of 100 %) and `capped` is true. Each `percent` is decimal text, e.g. `\"12.5\"` for 12.5 %; the " +
  "amounts (`ggr`, each `amount`, `remainder`) are decimal strings in the merchant's currency (`currency`) with its " +
  "minor digits, e.g. `\"1234.57\"` in ETB, never numbers."

/** Revenue share (admin, bearer `read:users`): each party's part of a merchant's GGR. */
export class RevenueShareApi extends HttpApiGroup.make("revenueShare")
  .add(
    HttpApiEndpoint.get("merchant", "/merchants/:id/revenue-share", {
      params: { id: Merchant.MerchantId },
      query: range,
      success: RevenueShareReport.RevenueShareReport,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "MERCHANT_NOT_FOUND", "REPORTS_BUSY", "REPORT_TIMEOUT")
    })
      .annotate(OpenApi.Summary, "A merchant's revenue share of a period (scope `read:users`)")
      .annotate(OpenApi.Description, rule + " Unknown merchant: 404 MERCHANT_NOT_FOUND; bad period: 400 VALIDATION_FAILED."),
    HttpApiEndpoint.get("list", "/revenue-share", {
      query: { ...range, ...MerchantsQuery },
      success: RevenueShareReport.RevenueShareList,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "REPORTS_BUSY", "REPORT_TIMEOUT")
    })
      .annotate(OpenApi.Summary, "Every merchant's revenue share of a period (scope `read:users`)")
      .annotate(
        OpenApi.Description,
        "A page of merchants in the order and with the filters of `GET /merchants` (newest first; `search`, " +
          "`status`), each with its revenue share as `GET /merchants/{id}/revenue-share` answers it, in its own " +
          "currency: no total is given, since amounts of different currencies are never added up. " + rule
      )
  )
  .middleware(AdminAuth)
  .prefix("/api/v1.1/operator-api")
  .annotate(OpenApi.Title, "Revenue share")
  .annotate(
    OpenApi.Description,
    "Revenue share for the provider's admins (bearer, `read:users`): each party's part of a merchant's " +
      "GGR over a period."
  )
{}
