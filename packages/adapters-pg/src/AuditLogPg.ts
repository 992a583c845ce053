import { AuditEntry, maxAuditOffset, type NewAuditEntry } from "@gateway/domain/Audit"
import type { MerchantId } from "@gateway/domain/Merchant"
import { offset, type PageRequest } from "@gateway/domain/Paging"
import { AuditLog } from "@gateway/domain/ports/AuditLog"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

const EntryRow = Schema.Struct({
  id: Schema.String,
  merchant_id: Schema.NullOr(Schema.Int),
  at: Schema.String,
  actor: Schema.String,
  address: Schema.NullOr(Schema.String),
  action: Schema.String,
  before: Schema.Unknown,
  after: Schema.Unknown
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(EntryRow))
const decodeCount = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ total: Schema.Number })))
const decodeEntry = Schema.decodeUnknownEffect(AuditEntry)

/**
 * {@link AuditLog} on PostgreSQL (`audit_log`, migration 0015, which refuses
 * UPDATE and DELETE). `audited` runs the change and the INSERT of its entry
 * in one transaction — joined by the repositories' statements, which run on
 * the same client — so a change is never kept without its entry.
 */
export const layer: Layer.Layer<AuditLog, never, SqlClient> = Layer.effect(
  AuditLog,
  Effect.gen(function*() {
    const sql = yield* SqlClient

    const insert = (entry: NewAuditEntry) =>
      sql`
        INSERT INTO audit_log (merchant_id, actor, address, action, before, after)
        VALUES (${entry.merchantId}, ${entry.actor.who}, ${entry.actor.address ?? null}, ${entry.action},
          ${entry.before === null ? null : JSON.stringify(entry.before)}::jsonb,
          ${entry.after === null ? null : JSON.stringify(entry.after)}::jsonb)`.pipe(Effect.asVoid, Effect.orDie)

    const audited = <A, E, R>(change: Effect.Effect<A, E, R>, entry: (result: A) => NewAuditEntry | undefined) =>
      sql.withTransaction(Effect.tap(change, (result) => {
        const made = entry(result)
        return made === undefined ? Effect.void : insert(made)
      })).pipe(Effect.catchTag("SqlError", Effect.die))

    const list = Effect.fn("AuditLog.list")(function*(merchantId: MerchantId | null, page: PageRequest) {
      // A merchant's entries along (merchant_id, id), the provider's own along the partial index of migration 0025.
      const whose = merchantId === null ? sql`merchant_id IS NULL` : sql`merchant_id = ${merchantId}`
      const rows = yield* sql`
        SELECT id::text AS id, merchant_id, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
          actor, address, action, before, after
        FROM audit_log WHERE ${whose}
        ORDER BY audit_log.id DESC LIMIT ${page.limit} OFFSET ${offset(page)}`.pipe(Effect.flatMap(decodeRows))
      // Counted only as far as the deepest page can reach (Audit.maxAuditOffset), along the merchant's index: in
      // its order, so that the generic plan (db/Database.ts) stops at the limit rather than reading a large
      // merchant's whole range with a bitmap first.
      const [counted] = yield* sql`
        SELECT count(*)::float8 AS total FROM (
          SELECT 1 FROM audit_log WHERE ${whose} ORDER BY audit_log.id DESC LIMIT ${maxAuditOffset + page.limit}
        ) reachable`.pipe(Effect.flatMap(decodeCount))
      const entries = yield* Effect.forEach(rows, (row) =>
        decodeEntry({
          id: row.id,
          merchantId: row.merchant_id,
          at: row.at,
          actor: row.actor,
          address: row.address,
          action: row.action,
          before: row.before,
          after: row.after
        }))
      return { entries, total: counted?.total ?? 0 }
    }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

    return AuditLog.of({ audited, list })
  })
)
