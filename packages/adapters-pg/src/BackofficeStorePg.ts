import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import type { Fragment } from "effect/sql/Statement"
import { Role, type User, type UserWithSecrets } from "@gateway/domain/Backoffice"
import { EmailTaken, MerchantId } from "@gateway/domain/Merchant"
import { offset } from "@gateway/domain/Paging"
import { BackofficeStore } from "@gateway/domain/ports/BackofficeStore"
import { DataCipher } from "./db/DataCipher.ts"

/** How long a back-office session lives: since its last request (`idleSeconds`) and since sign-in (`maxSeconds`). */
export interface SessionPolicy {
  readonly idleSeconds: number
  readonly maxSeconds: number
}

/** The default session lifetimes: 30 minutes idle, 12 hours in all. */
export const defaultSessionPolicy: SessionPolicy = { idleSeconds: 30 * 60, maxSeconds: 12 * 3600 }

const UserRow = Schema.Struct({
  id: Schema.Int,
  merchant_id: MerchantId,
  email: Schema.String,
  role: Role,
  password_hash: Schema.NullOr(Schema.String),
  is_default_password: Schema.Boolean,
  verified_email: Schema.Boolean,
  totp_enabled: Schema.Boolean,
  company_name: Schema.String,
  account_status: Schema.String
})
const decodeUsers = Schema.decodeUnknownEffect(Schema.Array(UserRow))
const decodeHashes = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ code_hash: Schema.String })))
const decodeFailures = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({
  failures: Schema.Int,
  seconds_since_last: Schema.Number
})))
const decodeTaken = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({
  at: Schema.String,
  before: Schema.NullOr(Schema.String)
})))
const decodeTotp = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({
  totp_secret_enc: Schema.String,
  totp_enabled: Schema.Boolean
})))

const userOf = (row: typeof UserRow.Type): UserWithSecrets => ({
  id: row.id,
  merchantId: row.merchant_id,
  email: row.email,
  role: row.role,
  isDefaultPassword: row.is_default_password,
  verifiedEmail: row.verified_email,
  totpEnabled: row.totp_enabled,
  hasPassword: row.password_hash !== null,
  companyName: row.company_name,
  passwordHash: row.password_hash ?? undefined,
  accountStatus: row.account_status
})

const publicOf = ({ passwordHash: _, accountStatus: __, ...user }: UserWithSecrets): User => user

/** {@link BackofficeStore} on PostgreSQL, shared by every instance. */
export const layer = (policy: SessionPolicy = defaultSessionPolicy): Layer.Layer<BackofficeStore, never, SqlClient | DataCipher> =>
  Layer.effect(
    BackofficeStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const cipher = yield* DataCipher
      const columns = sql`u.id, u.merchant_id, u.email, u.role, u.password_hash, u.is_default_password,
        u.verified_email, u.totp_enabled, m.company_name, m.account_status`
      const users = (where: Fragment) =>
        sql`SELECT ${columns} FROM backoffice_users u JOIN merchants m ON m.id = u.merchant_id WHERE ${where}`.pipe(
          Effect.flatMap(decodeUsers),
          Effect.map((rows) => rows.map(userOf))
        )
      const first = (where: Fragment) =>
        users(where).pipe(Effect.map((rows) => Option.fromUndefinedOr(rows[0])), Effect.orDie)
      /** The owner's password and e-mail state are the merchant's too (`isDefaultPassword`, `verifiedEmail` of the Merchant). */
      const syncOwner = (userId: number) =>
        sql`UPDATE merchants m SET password_hash = u.password_hash, is_default_password = u.is_default_password,
            verified_email = u.verified_email, updated_at = now()
          FROM backoffice_users u WHERE u.id = ${userId} AND u.role = 'owner' AND m.id = u.merchant_id`
      const live = sql`s.last_seen_at > now() - make_interval(secs => ${policy.idleSeconds})
        AND s.created_at > now() - make_interval(secs => ${policy.maxSeconds})`

      return BackofficeStore.of({
        userByEmail: (email) => first(sql`lower(u.email) = lower(${email})`),
        user: (id) => first(sql`u.id = ${id}`),
        setPassword: (userId, hash, keepSession) =>
          sql.withTransaction(Effect.gen(function*() {
            yield* sql`UPDATE backoffice_users SET password_hash = ${hash}, is_default_password = false, updated_at = now()
              WHERE id = ${userId}`
            yield* syncOwner(userId)
            yield* sql`DELETE FROM backoffice_sessions WHERE user_id = ${userId}
              AND ${keepSession === undefined ? sql`true` : sql`id <> ${keepSession}`}`
          })).pipe(Effect.orDie),
        setVerifiedEmail: (userId) =>
          sql.withTransaction(Effect.gen(function*() {
            yield* sql`UPDATE backoffice_users SET verified_email = true, updated_at = now() WHERE id = ${userId}`
            yield* sql`DELETE FROM backoffice_codes WHERE user_id = ${userId} AND purpose = 'verify-email'`
            yield* syncOwner(userId)
          })).pipe(Effect.orDie),
        listUsers: (merchantId, page) =>
          Effect.all({
            users: users(sql`u.merchant_id = ${merchantId} ORDER BY u.id LIMIT ${page.limit} OFFSET ${offset(page)}`).pipe(
              Effect.map((rows) => rows.map(publicOf))
            ),
            total: sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM backoffice_users WHERE merchant_id = ${merchantId}`
              .pipe(Effect.map(([row]) => row?.n ?? 0))
          }).pipe(Effect.orDie),
        // One statement: a new invitee, or one of the same merchant who has not accepted yet given the new role.
        // Nothing of either (the e-mail is another user's): EmailTaken.
        invite: (merchantId, email, role) =>
          sql`
            WITH ins AS (
              INSERT INTO backoffice_users (merchant_id, email, role) VALUES (${merchantId}, ${email}, ${role})
              ON CONFLICT DO NOTHING
              RETURNING id, merchant_id, email, role, password_hash, is_default_password, verified_email, totp_enabled
            ), again AS (
              UPDATE backoffice_users SET role = ${role}, updated_at = now()
              WHERE lower(email) = lower(${email}) AND merchant_id = ${merchantId} AND password_hash IS NULL
                AND role <> 'owner'
              RETURNING id, merchant_id, email, role, password_hash, is_default_password, verified_email, totp_enabled
            )
            SELECT u.id, u.merchant_id, u.email, u.role, u.password_hash, u.is_default_password, u.verified_email,
              u.totp_enabled, m.company_name, m.account_status
            FROM (SELECT * FROM ins UNION ALL SELECT * FROM again) u JOIN merchants m ON m.id = u.merchant_id`.pipe(
            Effect.flatMap(decodeUsers),
            Effect.orDie,
            Effect.flatMap((rows) => rows[0] === undefined ? Effect.fail(new EmailTaken()) : Effect.succeed(userOf(rows[0])))
          ),
        removeUser: (merchantId, userId) =>
          sql`
            WITH gone AS (
              DELETE FROM backoffice_users WHERE merchant_id = ${merchantId} AND id = ${userId} AND role <> 'owner'
              RETURNING id, merchant_id, email, role, password_hash, is_default_password, verified_email, totp_enabled
            )
            SELECT u.*, m.company_name, m.account_status FROM gone u JOIN merchants m ON m.id = u.merchant_id`.pipe(
            Effect.flatMap(decodeUsers),
            Effect.map((rows) => Option.map(Option.fromUndefinedOr(rows[0]), (row) => publicOf(userOf(row)))),
            Effect.orDie
          ),

        putCode: (userId, purpose, hash, lifetimeSeconds, tries, intervalSeconds) =>
          sql`INSERT INTO backoffice_codes (user_id, purpose, code_hash, expires_at, tries_left)
            VALUES (${userId}, ${purpose}, ${hash}, now() + make_interval(secs => ${lifetimeSeconds}), ${tries})
            ON CONFLICT (user_id, purpose) DO UPDATE
              SET code_hash = EXCLUDED.code_hash, expires_at = EXCLUDED.expires_at, tries_left = EXCLUDED.tries_left,
                created_at = now()
              WHERE backoffice_codes.created_at <= now() - make_interval(secs => ${intervalSeconds})
            RETURNING 1`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
        spendCodeTry: (userId, purpose) =>
          sql`UPDATE backoffice_codes SET tries_left = tries_left - 1
            WHERE user_id = ${userId} AND purpose = ${purpose} AND tries_left > 0 AND expires_at > now()
            RETURNING code_hash`.pipe(
            Effect.flatMap(decodeHashes),
            Effect.map((rows) => Option.fromUndefinedOr(rows[0]?.code_hash)),
            Effect.orDie
          ),
        dropCode: (userId, purpose) =>
          sql`DELETE FROM backoffice_codes WHERE user_id = ${userId} AND purpose = ${purpose}`.pipe(
            Effect.asVoid,
            Effect.orDie
          ),

        loginFailures: (key) =>
          sql`SELECT failures, extract(epoch FROM now() - last_failed_at)::float8 AS seconds_since_last
            FROM backoffice_login_failures WHERE key = ${key}`.pipe(
            Effect.flatMap(decodeFailures),
            Effect.map((rows) => ({ failures: rows[0]?.failures ?? 0, secondsSinceLast: rows[0]?.seconds_since_last ?? 0 })),
            Effect.orDie
          ),
        // Counted only while the failures are still those the try saw (ON CONFLICT waits for a concurrent try's
        // commit, then compares). A row gone since (cleared by a success, or a day old) starts again at 1: the
        // count the try saw was cleared, and this try is the first failure after it. The times are passed as
        // PostgreSQL's text of them (microseconds), compared as they were stored. A day after the last failure, an
        // account starts again from no failures.
        takeLoginTry: (key, seen) =>
          sql`WITH before AS (SELECT last_failed_at FROM backoffice_login_failures WHERE key = ${key})
            INSERT INTO backoffice_login_failures (key, failures, last_failed_at) VALUES (${key}, 1, now())
            ON CONFLICT (key) DO UPDATE SET last_failed_at = now(), failures = CASE
              WHEN backoffice_login_failures.last_failed_at < now() - interval '1 day' THEN 1
              ELSE backoffice_login_failures.failures + 1 END
            WHERE backoffice_login_failures.failures = ${seen}::int
            RETURNING last_failed_at::text AS at, (SELECT last_failed_at::text FROM before) AS before`.pipe(
            Effect.flatMap(decodeTaken),
            Effect.map((rows) =>
              Option.map(Option.fromUndefinedOr(rows[0]), (row) => ({ key, at: row.at, before: row.before ?? undefined }))
            ),
            Effect.orDie
          ),
        // A count the try started goes back a day, as if it were a day old: no wait, and the next failure starts at 1.
        forgiveLoginFailure: (taken) =>
          sql`UPDATE backoffice_login_failures SET failures = greatest(failures - 1, 0),
              last_failed_at = CASE WHEN last_failed_at = ${taken.at}::timestamptz
                THEN coalesce(${taken.before ?? null}::timestamptz, last_failed_at - interval '1 day')
                ELSE last_failed_at END
            WHERE key = ${taken.key}`.pipe(Effect.asVoid, Effect.orDie),
        clearLoginFailures: (key) =>
          sql`DELETE FROM backoffice_login_failures WHERE key = ${key}`.pipe(Effect.asVoid, Effect.orDie),

        createSession: (userId, sessionId) =>
          sql`INSERT INTO backoffice_sessions (id, user_id) VALUES (${sessionId}, ${userId})`.pipe(
            Effect.andThen(sql`DELETE FROM backoffice_sessions s WHERE s.user_id = ${userId} AND NOT (${live})`),
            Effect.asVoid,
            Effect.orDie
          ),
        session: (sessionId) =>
          sql`UPDATE backoffice_sessions s SET last_seen_at = now() WHERE s.id = ${sessionId} AND ${live}
            RETURNING s.user_id`.pipe(
            Effect.flatMap((rows) =>
              rows[0] === undefined ? Effect.succeed(Option.none()) : first(sql`u.id = ${Number(rows[0]["user_id"])}`)
            ),
            Effect.orDie
          ),
        endSession: (sessionId) =>
          sql`DELETE FROM backoffice_sessions WHERE id = ${sessionId}`.pipe(Effect.asVoid, Effect.orDie),

        totp: (userId) =>
          sql`SELECT totp_secret_enc, totp_enabled FROM backoffice_users WHERE id = ${userId} AND totp_secret_enc IS NOT NULL`
            .pipe(
              Effect.flatMap(decodeTotp),
              Effect.flatMap((rows) =>
                rows[0] === undefined
                  ? Effect.succeed(Option.none())
                  : Effect.map(cipher.decrypt(rows[0].totp_secret_enc), (secret) =>
                    Option.some({ secret, enabled: rows[0]?.totp_enabled === true }))
              ),
              Effect.orDie
            ),
        setTotp: (userId, secret) =>
          cipher.encrypt(secret).pipe(
            Effect.flatMap((stored) =>
              sql`UPDATE backoffice_users SET totp_secret_enc = ${stored}, totp_enabled = false, updated_at = now()
                WHERE id = ${userId} AND NOT totp_enabled`
            ),
            Effect.asVoid,
            Effect.orDie
          ),
        enableTotp: (userId) =>
          sql`UPDATE backoffice_users SET totp_enabled = true, updated_at = now() WHERE id = ${userId}`.pipe(
            Effect.asVoid,
            Effect.orDie
          ),
        removeTotp: (userId) =>
          sql`UPDATE backoffice_users SET totp_secret_enc = NULL, totp_enabled = false, updated_at = now()
            WHERE id = ${userId}`.pipe(Effect.asVoid, Effect.orDie)
      })
    })
  )
