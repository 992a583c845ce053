import { DateTime, Effect, Result } from "effect"
import type { Merchant, MerchantId, MerchantQuery } from "../Merchant.ts"
import * as Money from "../Money.ts"
import { meta } from "../Paging.ts"
import { MerchantRepo } from "../ports/MerchantRepo.ts"
import { Reports } from "../ports/Reports.ts"
import { checkRange, type ReportRange } from "../Report.ts"
import { capped, parties, percentText, shareFields, sharesOf, split } from "../RevenueShare.ts"
import { RevenueShareList, RevenueShareReport } from "../RevenueShareReport.ts"

/**
 * The report of one merchant: its GGR split by the shares in its settings
 * now (not those in force during the period), capped when they exceed 100 %.
 */
const reportOf = (merchant: Merchant, range: ReportRange, ggr: bigint): RevenueShareReport => {
  const applied = capped(sharesOf(merchant.MerchantSettings))
  // Capped shares always fit in 100 %: the split cannot be refused.
  const { parts, remainder } = Result.getOrThrow(split(ggr, applied.shares))
  const format = (minor: bigint) => Money.format(Money.make(minor, merchant.currency))
  return new RevenueShareReport({
    merchantId: merchant.id,
    companyName: merchant.companyName,
    currency: merchant.currency,
    from: DateTime.fromDateUnsafe(range.from),
    to: DateTime.fromDateUnsafe(range.to),
    ggr: format(ggr),
    parts: parties.map((party) => ({
      party,
      setting: shareFields[party],
      percent: percentText(applied.shares[party]),
      amount: format(parts[party])
    })),
    remainder: format(remainder),
    capped: applied.capped
  })
}

/** The revenue share of a merchant's GGR over a period; a bad period is ValidationFailed. */
export const revenueShare = Effect.fn("revenueShare")(function*(merchantId: MerchantId, range: ReportRange) {
  const invalid = checkRange(range)
  if (invalid !== undefined) return yield* invalid
  const merchant = yield* (yield* MerchantRepo).findById(merchantId)
  const ggr = yield* (yield* Reports).ggr([merchant], range)
  return reportOf(merchant, range, ggr.get(merchant.id) ?? 0n)
})

/**
 * The revenue shares of a page of merchants (the admin merchants list's
 * order and filters), each in its own currency: amounts of different
 * currencies are never added up.
 */
export const revenueShares = Effect.fn("revenueShares")(function*(query: MerchantQuery, range: ReportRange) {
  const invalid = checkRange(range)
  if (invalid !== undefined) return yield* invalid
  const page = yield* (yield* MerchantRepo).list(query)
  const ggr = yield* (yield* Reports).ggr(page.merchants, range)
  return new RevenueShareList({
    data: page.merchants.map((merchant) => reportOf(merchant, range, ggr.get(merchant.id) ?? 0n)),
    meta: meta(query, page.total)
  })
})
