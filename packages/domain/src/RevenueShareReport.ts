import { Schema } from "effect"
import { PageMeta } from "./Paging.ts"
import { parties } from "./RevenueShare.ts"
import { UtcTimestamp } from "./Validation.ts"

/** A party of the revenue share. */
export const Party = Schema.Literals(parties).annotate({
  description: "provider, superProvider, agent, merchant or user: the party of a `…PercentProfit` setting"
})

/** One party's part of the GGR. */
export const RevenueSharePart = Schema.Struct({
  party: Party,
  setting: Schema.String.annotate({ description: "The setting that holds the share, e.g. `providerPercentProfit`" }),
  percent: Schema.String.annotate({
    description: "The percentage of GGR applied, as exact decimal text, not a number: `\"12.5\"` is 12.5 % " +
      "(`\"0\"` when the setting is not set)",
    examples: ["12.5"]
  }),
  amount: Schema.String.annotate({
    description: "A decimal string in the merchant's currency, with its minor digits (`\"12.50\"` in EUR): " +
      "ggr × percent / 100, rounded toward zero to the currency's minor unit; same sign as ggr",
    examples: ["12.50"]
  })
})

/** The revenue share of a merchant's GGR over a period. */
export class RevenueShareReport extends Schema.Class<RevenueShareReport>("@gateway/domain/RevenueShareReport")(Schema.Struct({
  merchantId: Schema.Int.annotate({ description: "The merchant's id" }),
  companyName: Schema.String.annotate({ description: "The merchant's company name" }),
  currency: Schema.String.annotate({ description: "The merchant's currency (ISO 4217), that of every amount" }),
  from: UtcTimestamp("Start of the period, inclusive (ISO 8601, UTC)"),
  to: UtcTimestamp("End of the period, exclusive (ISO 8601, UTC)"),
  ggr: Schema.String.annotate({
    description: "A decimal string in the merchant's currency, with its minor digits (`\"1234.57\"` in ETB): " +
      "bets − wins − refunds of the merchant's real-money rounds of the period, as the GGR summary gives it; " +
      "negative when the players won",
    examples: ["1234.57"]
  }),
  parts: Schema.Array(RevenueSharePart).annotate({ description: "Every party, in the order of `Party`" }),
  remainder: Schema.String.annotate({
    description: "A decimal string in the merchant's currency, with its minor digits: ggr − Σ parts, the share no " +
      "party was given plus what rounding left; parts + remainder = ggr exactly",
    examples: ["298.66"]
  }),
  capped: Schema.Boolean.annotate({
    description: "true when the stored shares add up to more than 100 (saved before the sum was checked): each " +
      "party in order then got at most what the parties before it left of 100 %, and `percent` is what was applied"
  })
}).annotate({
  identifier: "RevenueShareReport",
  description: "The revenue share of a merchant's GGR over a period."
})) {}

/** A page of merchants' revenue shares. */
export class RevenueShareList extends Schema.Class<RevenueShareList>("@gateway/domain/RevenueShareList")(Schema.Struct({
  data: Schema.Array(RevenueShareReport).annotate({ description: "The merchants of this page" }),
  meta: PageMeta
}).annotate({
  identifier: "RevenueShareList",
  description: "A page of merchants' revenue shares."
})) {}
