import type { Effect } from "effect"
import { Context } from "effect"
import type { AuditEntry, NewAuditEntry } from "../Audit.ts"
import type { MerchantId } from "../Merchant.ts"
import type { PageRequest } from "../Paging.ts"

/**
 * The append-only record of administrative changes (CONTRACT §9). Entries are
 * never changed or removed; each is kept in the same transaction as the
 * change it records, so a change and its entry are kept both or neither.
 */
export class AuditLog extends Context.Service<AuditLog, {
  /**
   * Runs `change` and records what `entry` makes of its result in one transaction: when either fails nothing
   * of either is kept. `entry` answering undefined records nothing (a change that changed nothing).
   */
  audited<A, E, R>(
    change: Effect.Effect<A, E, R>,
    entry: (result: A) => NewAuditEntry | undefined
  ): Effect.Effect<A, E, R>
  /** A page of a merchant's entries (null: the provider's own), newest first, and how many there are in all. */
  list(
    merchantId: MerchantId | null,
    page: PageRequest
  ): Effect.Effect<{ readonly entries: ReadonlyArray<AuditEntry>; readonly total: number }>
}>()("@gateway/domain/ports/AuditLog") {}
