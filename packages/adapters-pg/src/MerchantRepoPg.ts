import type { DeliverySettings } from "@gateway/domain/Callback"
import type { AccountStatus, MerchantQuery } from "@gateway/domain/Merchant"
import { offset } from "@gateway/domain/Paging"
import { canChangeStatus, EmailTaken, Merchant, MerchantId, MerchantNotFound, StatusChangeRefused } from "@gateway/domain/Merchant"
import { MerchantSettings, SettingsFields } from "@gateway/domain/MerchantSettings"
import type { SettingsValues } from "@gateway/domain/MerchantSettings"
import type { NewMerchant, RetiringSecret, SecretReplacement } from "@gateway/domain/ports/MerchantRepo"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import type { ValidationFailed } from "@gateway/domain/Validation"
import { Effect, Layer, Schema } from "effect"
import type { Result } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import type { Fragment } from "effect/sql/Statement"
import { DataCipher } from "./db/DataCipher.ts"
import { fieldsOfRow, rowOfValues } from "./db/SettingsColumns.ts"

const Json = Schema.Record(Schema.String, Schema.Unknown)

const DeliveryRow = Schema.Struct({
  merchant_id: Schema.Int,
  webhook_url: Schema.NullOr(Schema.String),
  is_seperate_webhook_url: Schema.NullOr(Schema.Boolean),
  debit_webhook_url: Schema.NullOr(Schema.String),
  credit_webhook_url: Schema.NullOr(Schema.String),
  refund_webhook_url: Schema.NullOr(Schema.String),
  callback_url: Schema.NullOr(Schema.String)
})

/** A merchant's delivery settings from its row: NULL columns are unset fields. */
const deliverySettingsOf = (row: typeof DeliveryRow.Type): DeliverySettings => {
  const set = <K extends keyof DeliverySettings>(key: K, value: DeliverySettings[K] | null) =>
    value === null ? {} : { [key]: value }
  return {
    ...set("webhookUrl", row.webhook_url),
    ...set("isSeperateWebhookUrl", row.is_seperate_webhook_url),
    ...set("debitWebhookUrl", row.debit_webhook_url),
    ...set("creditWebhookUrl", row.credit_webhook_url),
    ...set("refundWebhookUrl", row.refund_webhook_url),
    ...set("callbackUrl", row.callback_url)
  }
}

const MerchantRow = Schema.Struct({
  id: Schema.Int,
  email: Schema.String,
  company_name: Schema.String,
  country: Schema.String,
  currency: Schema.String,
  account_status: Schema.String,
  client_id: Schema.String,
  hashed_client_id: Schema.String,
  phone_number: Schema.String,
  provider_id: Schema.Int,
  public_key: Schema.String,
  is_default_password: Schema.Boolean,
  verified_email: Schema.Boolean,
  created_at: Schema.String,
  updated_at: Schema.String,
  settings_id: Schema.Int,
  settings_created_at: Schema.String,
  settings_updated_at: Schema.String,
  settings: Json
})
type MerchantRow = typeof MerchantRow.Type

const CountRow = Schema.Struct({ total: Schema.Number })
const SecretsRow = Schema.Struct({
  private_key_enc: Schema.String,
  encryption_key_enc: Schema.String,
  previous_encryption_key_enc: Schema.NullOr(Schema.String),
  previous_encryption_key_until_ms: Schema.NullOr(Schema.Number),
  previous_private_key_enc: Schema.NullOr(Schema.String),
  previous_signing_key_until_ms: Schema.NullOr(Schema.Number)
})
const RotatedRow = Schema.Struct({ until_ms: Schema.Number, previous_public_key: Schema.NullOr(Schema.String) })
const StatusRow = Schema.Struct({ account_status: Schema.String })

const decodeRows = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) =>
  Schema.decodeUnknownEffect(Schema.Array(schema))
const decodeMerchant = Schema.decodeUnknownEffect(Merchant)
const decodeSettings = Schema.decodeUnknownEffect(MerchantSettings)
const decodeValues = Schema.decodeUnknownEffect(Schema.Struct(SettingsFields))

const settingsOf = (row: MerchantRow) => ({
  id: row.settings_id,
  createdAt: row.settings_created_at,
  updatedAt: row.settings_updated_at,
  merchantId: row.id,
  ...fieldsOfRow(row.settings)
})

const merchantOf = (row: MerchantRow) =>
  decodeMerchant({
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    email: row.email,
    accountStatus: row.account_status,
    clientId: row.client_id,
    companyName: row.company_name,
    country: row.country,
    currency: row.currency,
    hashedClientId: row.hashed_client_id,
    phoneNumber: row.phone_number,
    providerId: row.provider_id,
    publicKey: row.public_key,
    MerchantSettings: settingsOf(row),
    isDefaultPassword: row.is_default_password,
    verifiedEmail: row.verified_email
  })

/** `search` as a LIKE pattern matching itself literally: `%`, `_` and `\\` (the default escape) escaped. */
const containsPattern = (search: string): string => `%${search.replace(/[\\%_]/g, "\\$&")}%`

const isEmailConflict = (error: SqlError): boolean =>
  error.reason._tag === "UniqueViolation" &&
  // A back-office user (an invited one, migration 0016) may hold the e-mail too.
  (error.reason.constraint === "merchants_email_lower_key" || error.reason.constraint === "backoffice_users_email_key")

/** {@link MerchantRepo} on PostgreSQL; the merchant's private key and encryption key are stored encrypted. */
export const layer: Layer.Layer<MerchantRepo, never, SqlClient | DataCipher> = Layer.effect(
  MerchantRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const cipher = yield* DataCipher
    const iso = (column: string) => sql.literal(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)

    const select = (where: Fragment, tail: Fragment) =>
      sql`
        SELECT m.id, m.email, m.company_name, m.country, m.currency, m.account_status, m.client_id::text AS client_id,
          m.hashed_client_id, m.phone_number, m.provider_id, m.public_key, m.is_default_password, m.verified_email,
          ${iso("m.created_at")} AS created_at, ${iso("m.updated_at")} AS updated_at,
          s.id AS settings_id, ${iso("s.created_at")} AS settings_created_at,
          ${iso("s.updated_at")} AS settings_updated_at, to_jsonb(s) AS settings
        FROM merchants m JOIN merchant_settings s ON s.merchant_id = m.id
        WHERE ${where} ${tail}`.pipe(Effect.flatMap(decodeRows(MerchantRow)))

    const load = (id: number) => select(sql`m.id = ${id}`, sql``)

    const findRow = (id: MerchantId) =>
      load(id).pipe(Effect.flatMap(([row]) =>
        row === undefined ? Effect.fail(new MerchantNotFound({ merchantId: id })) : Effect.succeed(row)
      ))

    const findById = (id: MerchantId) => findRow(id).pipe(Effect.flatMap(merchantOf))

    const deliverySettings = (ids: ReadonlyArray<MerchantId>) =>
      ids.length === 0
        ? Effect.succeed(new Map<MerchantId, DeliverySettings>())
        : sql`
          SELECT merchant_id, webhook_url, is_seperate_webhook_url, debit_webhook_url, credit_webhook_url,
            refund_webhook_url, callback_url
          FROM merchant_settings WHERE merchant_id IN ${sql.in(ids)}`.pipe(
          Effect.flatMap(decodeRows(DeliveryRow)),
          Effect.map((rows) => new Map(rows.map((row) => [MerchantId.make(row.merchant_id), deliverySettingsOf(row)]))),
          Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die })
        )

    const list = Effect.fn("MerchantRepo.list")(function*(query: MerchantQuery) {
      const pattern = query.search === undefined || query.search === "" ? undefined : containsPattern(query.search)
      const where = sql.and([
        ...(query.status === undefined ? [] : [sql`m.account_status = ${query.status}`]),
        ...(pattern === undefined ? [] : [sql`(m.email ILIKE ${pattern} OR m.company_name ILIKE ${pattern})`])
      ])
      const rows = yield* select(where, sql`ORDER BY m.id DESC LIMIT ${query.limit} OFFSET ${offset(query)}`)
      const [counted] = yield* sql`SELECT count(*)::float8 AS total FROM merchants m WHERE ${where}`.pipe(
        Effect.flatMap(decodeRows(CountRow))
      )
      return { merchants: yield* Effect.forEach(rows, merchantOf), total: counted?.total ?? 0 }
    }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

    const create = Effect.fn("MerchantRepo.create")(function*(input: NewMerchant) {
      const privateKey = yield* cipher.encrypt(input.privateKey)
      const encryptionKey = yield* cipher.encrypt(input.encryptionKey)
      const merchant = yield* sql.withTransaction(Effect.gen(function*() {
        const [inserted] = yield* sql`
          INSERT INTO merchants ${
          sql.insert({
            email: input.email,
            company_name: input.companyName,
            country: input.country,
            currency: input.currency,
            client_id: input.clientId,
            hashed_client_id: input.hashedClientId,
            provider_id: input.providerId,
            public_key: input.publicKey,
            private_key_enc: privateKey,
            encryption_key_enc: encryptionKey,
            password_hash: input.passwordHash,
            otp_hash: input.otpHash
          })
        } RETURNING id`.pipe(Effect.flatMap(decodeRows(Schema.Struct({ id: MerchantId }))))
        if (inserted === undefined) return yield* Effect.die("INSERT … RETURNING gave no row")
        yield* sql`INSERT INTO merchant_settings (merchant_id) VALUES (${inserted.id})`
        return yield* findById(inserted.id)
      }))
      return merchant
    }, Effect.catchTag("SqlError", (error) => isEmailConflict(error) ? Effect.fail(new EmailTaken()) : Effect.die(error)),
      Effect.catchTags({ SchemaError: Effect.die, MerchantNotFound: Effect.die }))

    const epochMs = (column: string) => sql.literal(`(extract(epoch FROM ${column}) * 1000)::float8`)

    const retiring = (enc: string | null, untilMs: number | null) =>
      enc === null || untilMs === null
        ? Effect.succeed<RetiringSecret | undefined>(undefined)
        : Effect.map(cipher.decrypt(enc), (value): RetiringSecret | undefined => ({ value, untilMs }))

    // The previous secrets only while their overlap lasts.
    const secrets = Effect.fn("MerchantRepo.secrets")(function*(id: MerchantId) {
      const [row] = yield* sql`
        SELECT private_key_enc, encryption_key_enc,
          CASE WHEN previous_encryption_key_until > now() THEN previous_encryption_key_enc END AS previous_encryption_key_enc,
          CASE WHEN previous_encryption_key_until > now() THEN ${epochMs("previous_encryption_key_until")} END
            AS previous_encryption_key_until_ms,
          CASE WHEN previous_signing_key_until > now() THEN previous_private_key_enc END AS previous_private_key_enc,
          CASE WHEN previous_signing_key_until > now() THEN ${epochMs("previous_signing_key_until")} END
            AS previous_signing_key_until_ms
        FROM merchants WHERE id = ${id}`.pipe(Effect.flatMap(decodeRows(SecretsRow)))
      if (row === undefined) return yield* new MerchantNotFound({ merchantId: id })
      return {
        privateKey: yield* cipher.decrypt(row.private_key_enc),
        encryptionKey: yield* cipher.decrypt(row.encryption_key_enc),
        previousEncryptionKey: yield* retiring(row.previous_encryption_key_enc, row.previous_encryption_key_until_ms),
        previousPrivateKey: yield* retiring(row.previous_private_key_enc, row.previous_signing_key_until_ms)
      }
    }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die, DecryptionFailed: Effect.die }))

    // One UPDATE: the current secret becomes the previous one (a previous one of an earlier rotation is dropped).
    const rotateSecret = Effect.fn("MerchantRepo.rotateSecret")(function*(
      id: MerchantId,
      replacement: SecretReplacement,
      overlapSeconds: number
    ) {
      const until = sql`now() + make_interval(secs => ${overlapSeconds})`
      const rows = replacement.secret === "encryptionKey"
        ? yield* sql`
          UPDATE merchants SET previous_encryption_key_enc = encryption_key_enc,
            previous_encryption_key_until = ${until},
            encryption_key_enc = ${yield* cipher.encrypt(replacement.encryptionKey)}, updated_at = now()
          WHERE id = ${id}
          RETURNING ${epochMs("previous_encryption_key_until")} AS until_ms, NULL::text AS previous_public_key`
        : yield* sql`
          UPDATE merchants SET previous_private_key_enc = private_key_enc, previous_public_key = public_key,
            previous_signing_key_until = ${until},
            private_key_enc = ${yield* cipher.encrypt(replacement.privateKey)},
            public_key = ${replacement.publicKey}, updated_at = now()
          WHERE id = ${id}
          RETURNING ${epochMs("previous_signing_key_until")} AS until_ms, previous_public_key`
      const [row] = yield* decodeRows(RotatedRow)(rows)
      if (row === undefined) return yield* new MerchantNotFound({ merchantId: id })
      return { overlapUntilMs: row.until_ms, previousPublicKey: row.previous_public_key ?? undefined }
    }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

    const changeSettings = Effect.fn("MerchantRepo.changeSettings")(function*(
      id: MerchantId,
      change: (current: SettingsValues) => Result.Result<SettingsValues, ValidationFailed>
    ) {
      return yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`SELECT 1 FROM merchant_settings WHERE merchant_id = ${id} FOR UPDATE`
        const row = yield* findRow(id)
        const current = yield* decodeValues(fieldsOfRow(row.settings))
        const next = yield* Effect.fromResult(change(current))
        yield* sql`UPDATE merchant_settings SET ${sql.update(rowOfValues(next))}, updated_at = now()
          WHERE merchant_id = ${id}`
        return yield* findRow(id).pipe(Effect.flatMap((updated) => decodeSettings(settingsOf(updated))))
      }))
    }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

    const changeStatus = Effect.fn("MerchantRepo.changeStatus")(function*(id: MerchantId, to: AccountStatus) {
      return yield* sql.withTransaction(Effect.gen(function*() {
        const [row] = yield* sql`SELECT account_status FROM merchants WHERE id = ${id} FOR UPDATE`.pipe(
          Effect.flatMap(decodeRows(StatusRow))
        )
        if (row === undefined) return yield* new MerchantNotFound({ merchantId: id })
        const current = yield* findById(id)
        if (!canChangeStatus(current.accountStatus, to)) {
          return yield* new StatusChangeRefused({ from: current.accountStatus, to })
        }
        if (current.accountStatus === to) return current
        yield* sql`UPDATE merchants SET account_status = ${to}, updated_at = now() WHERE id = ${id}`
        return yield* findById(id)
      }))
    }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

    return MerchantRepo.of({
      create,
      findById: (id) => findById(id).pipe(Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die })),
      deliverySettings,
      list,
      secrets,
      rotateSecret,
      changeSettings,
      changeStatus
    })
  })
)
