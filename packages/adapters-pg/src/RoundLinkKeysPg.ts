import { Effect, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomBytes } from "node:crypto"
import { DataCipher } from "./db/DataCipher.ts"

/** The advisory lock key that serialises the creation of the first round-link key across instances. */
export const roundLinkKeyLockKey = 7_246_031_017

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ key_enc: Schema.String })))

/**
 * The round-link keys kept in the database, newest first, without creating
 * one: with `ROUND_LINK_KEY` set they still verify (after `ROUND_LINK_KEY`'s
 * own keys), so the links sent before it was set keep opening.
 */
export const storedKeys = Effect.gen(function*() {
  const sql = yield* SqlClient
  const cipher = yield* DataCipher
  const rows = yield* sql`SELECT key_enc FROM round_link_keys ORDER BY id DESC`.pipe(Effect.flatMap(decodeRows))
  return yield* Effect.forEach(rows, (row) => cipher.decrypt(row.key_enc))
}).pipe(Effect.orDie, Effect.withSpan("RoundLinkKeys.storedKeys"))

/**
 * The keys that sign round links when `ROUND_LINK_KEY` is not set
 * (`round_link_keys`, encrypted with {@link DataCipher}), newest first: the
 * first signs, every one verifies, so a link stays valid for ever. The first
 * read on a database creates one (32 random bytes) under an advisory lock,
 * so instances that start together agree.
 */
export const keys = Effect.gen(function*() {
  const sql = yield* SqlClient
  const cipher = yield* DataCipher
  const stored = sql`SELECT key_enc FROM round_link_keys ORDER BY id DESC`.pipe(Effect.flatMap(decodeRows))
  const found = yield* stored
  const rows = found.length > 0 ? found : yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql`SELECT pg_advisory_xact_lock(${sql.literal(String(roundLinkKeyLockKey))})`
    const again = yield* stored
    if (again.length > 0) return again
    const key_enc = yield* cipher.encrypt(Redacted.make(randomBytes(32).toString("base64url")))
    yield* sql`INSERT INTO round_link_keys (key_enc) VALUES (${key_enc})`
    return [{ key_enc }]
  }))
  return yield* Effect.forEach(rows, (row) => cipher.decrypt(row.key_enc))
}).pipe(Effect.orDie, Effect.withSpan("RoundLinkKeys.keys"))
