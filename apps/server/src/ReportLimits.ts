import type { ReportsPg } from "@gateway/adapters-pg"
import type { GatewayConfig } from "./Config.ts"

/**
 * The reports' budget (ReportBudget): one CSV download per merchant; CSV downloads in all fewer than the reports'
 * connections, so that a page always finds one while downloads hold theirs between batches (with one connection,
 * one download and no turns: the pool itself lets one statement run at a time).
 */
export const reportLimits = (config: GatewayConfig): Parameters<typeof ReportsPg.layerOnReportsPool>[0] => {
  const connections = config.reports.maxConnections
  return {
    total: config.reports.total,
    perMerchant: config.reports.perMerchant,
    exports: Math.max(1, Math.min(config.reports.exports, connections - 1)),
    exportsPerMerchant: 1,
    dbShare: config.reports.dbShare,
    dbShareTotal: config.reports.dbShareTotal,
    dbBurstMs: config.reports.dbBurstMs,
    dbStatements: connections === 1 ? undefined : config.reports.dbStatements
  }
}
