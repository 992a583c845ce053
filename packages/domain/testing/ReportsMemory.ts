import { Effect, Layer, Stream } from "effect"
import { Reports } from "../src/ports/Reports.ts"
import { TransactionNotFound } from "../src/Report.ts"

/** Reports over no rounds at all: empty lists, no transaction, an empty summary. */
export const emptyReports: Layer.Layer<Reports> = Layer.succeed(Reports, Reports.of({
  rounds: () => Effect.succeed({ rounds: [], total: 0 }),
  roundStream: () => Effect.succeed(Stream.empty),
  transaction: (_merchantId, transactionId) => Effect.fail(new TransactionNotFound({ transactionId })),
  summary: () => Effect.succeed({ groups: [], groupCount: 0, total: { rounds: 0, bets: 0n, wins: 0n, refunds: 0n, freeWins: 0n } }),
  summaryStream: () => Effect.succeed(Stream.empty),
  ggr: () => Effect.succeed(new Map())
}))
