import { DateTime, Effect, Layer } from "effect"
import { AuditEntry, type NewAuditEntry } from "../src/Audit.ts"
import { offset } from "../src/Paging.ts"
import { AuditLog } from "../src/ports/AuditLog.ts"

/** The audit log in memory: entries kept only when the change succeeded, listed newest first. */
export const makeAuditLog = () => {
  const entries: Array<AuditEntry> = []
  const append = (entry: NewAuditEntry) =>
    entries.push(
      new AuditEntry({
        id: String(entries.length + 1),
        merchantId: entry.merchantId,
        at: DateTime.formatIso(DateTime.nowUnsafe()),
        actor: entry.actor.who,
        address: entry.actor.address ?? null,
        action: entry.action,
        before: entry.before,
        after: entry.after
      })
    )
  const service = AuditLog.of({
    audited: (change, entry) =>
      Effect.tap(change, (result) =>
        Effect.sync(() => {
          const made = entry(result)
          if (made !== undefined) append(made)
        })),
    list: (merchantId, page) =>
      Effect.sync(() => {
        const found = entries.filter((e) => e.merchantId === merchantId).reverse()
        return { entries: found.slice(offset(page), offset(page) + page.limit), total: found.length }
      })
  })
  return { service, entries: (): ReadonlyArray<AuditEntry> => entries }
}

/** {@link makeAuditLog} as a layer. */
export const auditLog = Layer.sync(AuditLog, () => makeAuditLog().service)
