import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Config, Effect, Exit, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql/SqlClient"
import { createServer, type Server, type Socket, connect } from "node:net"
import * as RoundLedgerPg from "../src/RoundLedgerPg.ts"
import { realRound, sessionOf, merchant, transaction, walletLayer } from "./walletFixtures.ts"

/** A TCP proxy to PostgreSQL that can be cut (connections dropped, new ones refused) and restored on the same port. */
const proxyTo = (host: string, port: number) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const sockets = new Set<Socket>()
      let server: Server
      const listen = (at: number) =>
        new Promise<number>((resolve) => {
          server = createServer((client) => {
            const upstream = connect(port, host)
            for (const s of [client, upstream]) {
              sockets.add(s)
              s.on("close", () => sockets.delete(s))
              s.on("error", () => undefined)
            }
            client.pipe(upstream).pipe(client)
          })
          server.listen(at, "127.0.0.1", () => {
            const address = server.address()
            resolve(typeof address === "object" && address !== null ? address.port : at)
          })
        })
      const own = await listen(0)
      const cut = () =>
        new Promise<void>((resolve) => {
          for (const s of sockets) s.destroy()
          server.close(() => resolve())
        })
      return { port: own, cut, restore: () => listen(own).then(() => undefined), close: cut }
    }),
    (proxy) => Effect.promise(proxy.close)
  )

const statusOf = (roundId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const [row] = yield* sql<{ readonly status: string; readonly refunds: number }>`
      SELECT r.status, (SELECT count(*)::int FROM webhook_deliveries w
        WHERE w.type = 'transaction.refund' AND w.body LIKE ${"%" + roundId + "%"}) AS refunds
      FROM rounds r WHERE r.id = ${roundId}`
    return row
  })

describe("prompt repair after a database outage", () => {
  layer(walletLayer, { excludeTestServices: true })((it) => {
    it.effect("a round whose settlement could not be written is refunded as soon as the database answers again", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const [db] = yield* sql<{ readonly name: string }>`SELECT current_database() AS name`
        const url = new URL(Redacted.value(yield* Config.Redacted("DATABASE_URL")))
        const proxy = yield* proxyTo(url.hostname, Number(url.port || 5432))
        url.host = `127.0.0.1:${proxy.port}`
        const client = yield* PgClient.make({ url: Redacted.make(url.href), database: db?.name ?? "", maxConnections: 2 }).pipe(
          Effect.provide(Reactivity.layer)
        )
        const ledger = yield* RoundLedgerPg.make.pipe(Effect.provideService(SqlClient, client))

        const session = yield* sessionOf(yield* merchant, "player-1", "op-1")
        const { roundId, debit } = yield* realRound(session, 500n, undefined)
        yield* Effect.promise(proxy.cut)
        const credit = transaction(session, "transaction.credit", roundId, 0n, debit.transactionId)
        const settled = yield* Effect.exit(ledger.settle(roundId, JSON.stringify({ summary: "2 even" }), 0n, credit))
        assert.isTrue(Exit.isFailure(settled), "the settlement could not be written")
        yield* Effect.sleep("1 second")
        assert.deepStrictEqual(yield* statusOf(roundId), { status: "debiting", refunds: 0 })

        yield* Effect.promise(proxy.restore)
        const back = Date.now()
        let row = yield* statusOf(roundId)
        while (row?.status === "debiting" && Date.now() - back < 5_000) {
          yield* Effect.sleep("50 millis")
          row = yield* statusOf(roundId)
        }
        const repairedAfterMs = Date.now() - back
        assert.deepStrictEqual(row, { status: "failed", refunds: 1 })
        assert.isBelow(repairedAfterMs, 2_000, `refunded ${repairedAfterMs} ms after the database came back`)
        console.log(`round refunded ${repairedAfterMs} ms after the database came back`)
        yield* Effect.sleep("600 millis")
        assert.deepStrictEqual(yield* statusOf(roundId), { status: "failed", refunds: 1 }, "refunded once")
      }).pipe(Effect.scoped), { timeout: 30_000 })
  })
})
