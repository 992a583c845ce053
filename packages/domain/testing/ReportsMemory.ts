import { Effect, Layer, Stream } from "effect"
import { Reports } from "../src/ports/Reports.ts"
import { TransactionNotFound } from "../src/Report.ts"

/** Reports over no rounds at all: empty lists, no transaction, an empty summary. */
export const emptyReports: Layer.Layer<Reports> = Layer.succeed(Reports, Reports.of({
  rounds: () => Effect.succeed({ rounds: [], total: 0 }),
  roundStream: () => Stream.empty,
  transaction: (_merchantId, transactionId) => Effect.fail(new TransactionNotFound({ transactionId })),
  summary: () => Effect.succeed([]),
  ggr: () => Effect.succeed(new Map())
}))
