import { Schema } from "effect"
import { MerchantId } from "./Merchant.ts"
import { offset, type PageRequest } from "./Paging.ts"
import { ValidationFailed } from "./Validation.ts"

/**
 * How deep the audit log pages: `(page − 1) × limit` at most this, as the round list does, so a page never
 * makes the database read and skip more entries than that; its count stops there too (`totalElements` is at
 * most this plus `limit`).
 */
export const maxAuditOffset = 10_000

/** A page of the audit log deeper than {@link maxAuditOffset}: ValidationFailed naming `page`. */
export const checkAuditPage = (page: PageRequest): ValidationFailed | undefined =>
  offset(page) > maxAuditOffset
    ? new ValidationFailed({ field: "page", detail: `(page − 1) × limit must be at most ${maxAuditOffset}` })
    : undefined

/** What an audited change did. */
export const AuditAction = Schema.Literals([
  "merchant.create",
  "merchant.settings",
  "merchant.status",
  "api_key.issue",
  "api_key.revoke",
  "secret.rotate",
  "secret.reveal",
  "user.password",
  "user.second_factor",
  "user.invite",
  "user.remove",
  "game.upsert",
  "game.retire",
  "launch_key.rotate"
]).annotate({
  description: "merchant.create, merchant.settings (RTP included), merchant.status, api_key.issue, api_key.revoke, " +
    "secret.rotate, secret.reveal; the back office's users: user.password (changed), user.second_factor (TOTP " +
    "on or off), user.invite, user.remove; and the provider's own changes (no merchant): game.upsert (a game of the " +
    "catalogue added or changed), game.retire, launch_key.rotate (the launch-token signing key's `kid` before " +
    "and after)"
})
export type AuditAction = typeof AuditAction.Type

/** One value of a change: settings, statuses and key names are strings, numbers, booleans or null. */
export const AuditValue = Schema.NullOr(Schema.Union([Schema.String, Schema.Finite, Schema.Boolean]))
export type AuditValue = typeof AuditValue.Type

/** Values before or after a change: the fields it touched; secrets only named (`"rotated"`, `"revealed"`). */
export const AuditValues = Schema.NullOr(Schema.Record(Schema.String, AuditValue))
export type AuditValues = typeof AuditValues.Type

/** Who made a change and from where. */
export interface Actor {
  /** The admin bearer token's subject (`sub`), `cli` for the ops command line, `api-key` for an operator's own. */
  readonly who: string
  /** The client's address; undefined when there is none (the command line). */
  readonly address: string | undefined
}

/** The actor of the ops command line. */
export const cliActor: Actor = { who: "cli", address: undefined }

/** The actor of an admin bearer token: its subject, or `bearer` when it carries none. */
export const adminActor = (subject: string | undefined, address: string): Actor => ({
  who: subject === undefined || subject === "" ? "bearer" : subject.slice(0, 200),
  address
})

/** The actor of the back office: the signed-in user's e-mail, and the client's address. */
export const backofficeActor = (email: string, address: string): Actor => ({ who: email.slice(0, 200), address })

/** One change to record. */
export interface NewAuditEntry {
  /** The merchant changed; null for a change of the provider's game catalogue. */
  readonly merchantId: MerchantId | null
  readonly actor: Actor
  readonly action: AuditAction
  readonly before: AuditValues
  readonly after: AuditValues
}

/** One recorded change, as the audit list answers it. */
export class AuditEntry extends Schema.Class<AuditEntry>("@gateway/domain/AuditEntry")(Schema.Struct({
  id: Schema.String.annotate({ description: "The entry's id: increasing, in the order the changes were committed" }),
  merchantId: Schema.NullOr(MerchantId).annotate({
    description: "The merchant changed; null for a change of the provider's own (`game.upsert`, `game.retire`, " +
      "`launch_key.rotate`), which only the provider's audit log lists"
  }),
  at: Schema.String.annotate({ description: "When the change was made (ISO 8601, UTC)", examples: ["2026-11-25T09:30:00.000Z"] }),
  actor: Schema.String.annotate({
    description: "Who made it: the admin bearer token's subject (`bearer` without one), `cli` (the command line), " +
      "`api-key` (the operator's own `PUT /settings`) or a back-office user's e-mail"
  }),
  address: Schema.NullOr(Schema.String).annotate({ description: "The client's address; null from the command line" }),
  action: AuditAction,
  before: AuditValues.annotate({ description: "The touched values before the change (null for a creation or a reveal)" }),
  after: AuditValues.annotate({ description: "The touched values after it; secrets appear only as `rotated` or `revealed`" })
}).annotate({
  identifier: "AuditEntry",
  description: "One change to a merchant made through the admin API, the command line or the back office, or to " +
    "the provider's own (game catalogue, launch-token key) through the admin API."
})) {}

/** Values of a settings change that differ: the touched fields before and after. */
export const changedValues = (
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>
): { readonly before: Record<string, AuditValue>; readonly after: Record<string, AuditValue> } => {
  const was: Record<string, AuditValue> = {}
  const is: Record<string, AuditValue> = {}
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = jsonOf(before[key])
    const b = jsonOf(after[key])
    if (a === b) continue
    was[key] = a
    is[key] = b
  }
  return { before: was, after: is }
}

const jsonOf = (value: unknown): AuditValue =>
  value === undefined || value === null
    ? null
    : typeof value === "string" || typeof value === "boolean"
    ? value
    : typeof value === "number"
    ? Number.isFinite(value) ? value : String(value)
    : typeof value === "bigint"
    ? value.toString()
    : String(value)
