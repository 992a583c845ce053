import { Config, LogLevel, Option, Redacted, Schema, SchemaTransformation } from "effect"
import { defaultSchedule } from "@gateway/domain/RetrySchedule"
import { costRange, defaultCost } from "@gateway/adapters-operator/crypto/PasswordHash"

const between = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))

const Delay = Schema.String.check(
  Schema.isPattern(/^\d{1,6}(\.\d{1,3})?$/, { message: "must be a number of seconds like 5 or 0.05" })
).pipe(
  Schema.decodeTo(Schema.NumberFromString.pipe(
    Schema.decodeTo(Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 7 * 86_400 })))
  ))
)

/**
 * One of `literals`, in any case and with blanks around it (`debug`,
 * ` Debug`, `DEBUG`), decoded to the literal as written: the values a
 * person types into an environment file.
 */
export const AnyCase = <const L extends string>(literals: ReadonlyArray<L>) => {
  const byLowerCase = new Map<string, string>(literals.map((literal) => [literal.toLowerCase(), literal]))
  return Schema.String.pipe(
    Schema.decodeTo(
      Schema.String,
      SchemaTransformation.transform({
        decode: (text: string) => byLowerCase.get(text.trim().toLowerCase()) ?? text,
        encode: (text: string) => text
      })
    ),
    Schema.decodeTo(Schema.Literals(literals), SchemaTransformation.passthroughSupertype())
  )
}

/** `true`/`false` (and `yes`/`no`, `on`/`off`, `y`/`n`, `1`/`0`) in any case: `TRUE` works. */
const truthy = ["true", "yes", "on", "y", "1"] as const
const falsy = ["false", "no", "off", "n", "0"] as const
type BooleanWord = typeof truthy[number] | typeof falsy[number]
const AnyCaseBoolean = AnyCase<BooleanWord>([...truthy, ...falsy]).pipe(
  Schema.decodeTo(
    Schema.Boolean,
    SchemaTransformation.transform({
      decode: (word: BooleanWord) => word === "true" || word === "yes" || word === "on" || word === "y" || word === "1",
      encode: (value: boolean): BooleanWord => value ? "true" : "false"
    })
  )
)

/** Comma-separated seconds (`"5,300,1800"`) as a non-empty schedule: the form of `WEBHOOK_RETRY_SCHEDULE`. */
export const ScheduleFromString = Schema.String.pipe(
  Schema.decodeTo(
    Schema.Array(Schema.String),
    SchemaTransformation.transform({
      decode: (text: string): ReadonlyArray<string> => text.split(",").map((part) => part.trim()),
      encode: (parts: ReadonlyArray<string>) => parts.join(",")
    })
  ),
  Schema.decodeTo(Schema.Array(Delay).check(Schema.isMinLength(1, { message: "must list at least one delay" })))
)

const splitSecrets = (text: string): ReadonlyArray<string> => text.split(",").map((part) => part.trim())

/**
 * `AUTH_JWT_SECRET`: one secret, or several separated by commas while one is
 * rotated (the first signs, every one is accepted); each at least 32
 * characters, at most 8 of them. The message never quotes a secret.
 */
const JwtSecrets = Schema.String.check(Schema.makeFilter((text: string) => {
  const secrets = splitSecrets(text)
  if (secrets.length > 8) return "must list at most 8 secrets"
  return secrets.every((secret) => secret.length >= 32)
    ? true
    : secrets.length === 1
    ? "must be at least 32 characters"
    : "each comma-separated secret must be at least 32 characters"
}))

/** `SMTP_URL`: `smtp://[user:pass@]host[:port]` or `smtps://…`. The message never quotes it (it may hold a password). */
const SmtpUrl = Schema.String.check(Schema.makeFilter((text: string) => {
  const url = URL.canParse(text) ? new URL(text) : undefined
  return url !== undefined && (url.protocol === "smtp:" || url.protocol === "smtps:") && url.hostname !== ""
    ? true
    : "must be an smtp:// or smtps:// URL with a host"
}))

/** `MAIL_FROM`: an address, or `Name <address>`, on one line. */
const MailFrom = Schema.String.check(
  Schema.isMaxLength(254),
  Schema.isPattern(/^[^\r\n]*[^\s@<>]+@[^\s@<>]+[^\r\n]*$/, { message: "must be an e-mail address or Name <address>" })
)

/**
 * `ROUND_LINK_KEY`: the key that signs round links (CONTRACT §10), or several
 * separated by commas while one is rotated (the first signs, every one
 * verifies: links never expire, so keep an old key as long as its links
 * should open); each at least 32 characters, at most 8.
 */
const RoundLinkKeys = Schema.String.check(Schema.makeFilter((text: string) => {
  const keys = splitSecrets(text)
  if (keys.length > 8) return "must list at most 8 keys"
  return keys.every((key) => key.length >= 32) ? true : "each comma-separated key must be at least 32 characters"
}))

/**
 * Trace export over OTLP/HTTP, on when `OTEL_EXPORTER_OTLP_ENDPOINT` (the
 * collector's base URL, `/v1/traces` appended) or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the full URL) is set; the other
 * variables are the OpenTelemetry SDK's, with the same meaning. The headers
 * (`key=value,…`, values percent-encoded) usually hold a vendor's token.
 */
export const TracingConfig = Config.all({
  endpoint: Config.option(Config.URL("OTEL_EXPORTER_OTLP_ENDPOINT")),
  tracesEndpoint: Config.option(Config.URL("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")),
  protocol: Config.schema(AnyCase(["http/json", "http/protobuf"]), "OTEL_EXPORTER_OTLP_PROTOCOL").pipe(
    Config.withDefault("http/json")
  ),
  headers: Config.option(
    Config.Record(Schema.String, Schema.StringFromUriComponent, "OTEL_EXPORTER_OTLP_HEADERS", { trim: true }).pipe(
      Config.map(Redacted.make)
    )
  ),
  serviceName: Config.NonEmptyString("OTEL_SERVICE_NAME").pipe(Config.withDefault("operator-gateway")),
  exportIntervalMs: Config.schema(between(1, 600_000), "OTEL_BSP_SCHEDULE_DELAY").pipe(Config.withDefault(5000))
})
export type TracingConfig = Config.Success<typeof TracingConfig>

/**
 * Every environment variable the gateway reads (CONTRACT §7), read once,
 * here, with its default; the layers get the values from the app. A bad
 * value fails naming its variable.
 */
export const GatewayConfig = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(8080)),
  host: Config.String("HOST").pipe(Config.withDefault("0.0.0.0")),
  publicBaseUrl: Config.option(Config.URL("PUBLIC_BASE_URL")),
  dataDir: Config.String("DATA_DIR").pipe(Config.withDefault("./.data")),
  databaseUrl: Config.option(Config.Redacted("DATABASE_URL")),
  dataEncryptionKey: Config.option(Config.Redacted("DATA_ENCRYPTION_KEY")),
  logLevel: Config.schema(AnyCase(LogLevel.values), "LOG_LEVEL").pipe(Config.withDefault("Info")),
  logFormat: Config.schema(AnyCase(["json", "pretty"]), "LOG_FORMAT").pipe(
    Config.withDefault(process.stdout.isTTY ? "pretty" : "json")
  ),
  auth: Config.all({
    secrets: Config.option(Config.schema(Schema.Redacted(JwtSecrets), "AUTH_JWT_SECRET").pipe(
      Config.map((secrets) => splitSecrets(Redacted.value(secrets)).map((secret) => Redacted.make(secret)))
    )),
    jwksUrl: Config.option(Config.URL("AUTH_JWKS_URL")),
    issuer: Config.option(Config.NonEmptyString("AUTH_ISSUER")),
    audience: Config.option(Config.NonEmptyString("AUTH_AUDIENCE")),
    maxLifetimeSeconds: Config.schema(between(60, 30 * 86_400), "AUTH_MAX_TOKEN_LIFETIME_SECONDS").pipe(
      Config.withDefault(86_400)
    )
  }),
  launchTtlSeconds: Config.schema(between(1, 3600), "LAUNCH_TOKEN_TTL_SECONDS").pipe(Config.withDefault(60)),
  launchSigningKey: Config.option(Config.Redacted("LAUNCH_SIGNING_KEY")),
  roundLinkKeys: Config.option(Config.schema(Schema.Redacted(RoundLinkKeys), "ROUND_LINK_KEY").pipe(
    Config.map((keys) => splitSecrets(Redacted.value(keys)).map((key) => Redacted.make(key)))
  )),
  metricsToken: Config.option(Config.schema(
    Schema.Redacted(Schema.String.check(Schema.isMinLength(16, { message: "must be at least 16 characters" }))),
    "METRICS_TOKEN"
  )),
  allowPrivateOperatorUrls: Config.schema(AnyCaseBoolean, "ALLOW_PRIVATE_OPERATOR_URLS").pipe(Config.withDefault(false)),
  detailsTimeoutMs: Config.schema(between(1, 60_000), "DETAILS_TIMEOUT_MS").pipe(Config.withDefault(5000)),
  webhookTimeoutMs: Config.schema(between(1, 60_000), "WEBHOOK_TIMEOUT_MS").pipe(Config.withDefault(5000)),
  staleDebitMarginSeconds: Config.schema(between(1, 3600), "STALE_DEBIT_MARGIN_SECONDS").pipe(Config.withDefault(60)),
  webhookRetrySchedule: Config.schema(ScheduleFromString, "WEBHOOK_RETRY_SCHEDULE").pipe(
    Config.withDefault(defaultSchedule)
  ),
  rateLimit: Config.all({
    rps: Config.schema(Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0)), "RATE_LIMIT_RPS").pipe(
      Config.withDefault(100)
    ),
    burst: Config.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)), "RATE_LIMIT_BURST").pipe(
      Config.withDefault(200)
    )
  }),
  redis: Config.all({
    url: Config.option(Config.schema(
      Schema.Redacted(Schema.String.check(
        Schema.isPattern(/^rediss?:\/\/\S+$/, { message: "must be a redis:// or rediss:// URL" })
      )),
      "REDIS_URL"
    )),
    keyPrefix: Config.schema(
      Schema.String.check(Schema.isPattern(/^[\w:.-]{1,64}$/, { message: "must be 1 to 64 letters, digits or _ : . -" })),
      "REDIS_KEY_PREFIX"
    ).pipe(Config.withDefault("gateway:"))
  }),
  operatorBreaker: Config.all({
    failures: Config.schema(between(0, 1000), "OPERATOR_BREAKER_FAILURES").pipe(Config.withDefault(5)),
    openMs: Config.schema(between(100, 3_600_000), "OPERATOR_BREAKER_OPEN_MS").pipe(Config.withDefault(1000))
  }),
  maxBodyBytes: Config.schema(between(1024, 10 * 1024 * 1024), "MAX_BODY_BYTES").pipe(Config.withDefault(65_536)),
  trustProxy: Config.schema(AnyCaseBoolean, "TRUST_PROXY").pipe(Config.withDefault(false)),
  connections: Config.all({
    headersTimeoutMs: Config.schema(between(100, 600_000), "HTTP_HEADERS_TIMEOUT_MS").pipe(Config.withDefault(10_000)),
    requestTimeoutMs: Config.schema(between(100, 600_000), "HTTP_REQUEST_TIMEOUT_MS").pipe(Config.withDefault(30_000)),
    idleTimeoutMs: Config.schema(between(1000, 3_600_000), "HTTP_IDLE_TIMEOUT_MS").pipe(Config.withDefault(120_000)),
    maxPerAddress: Config.schema(between(0, 100_000), "MAX_CONNECTIONS_PER_ADDRESS").pipe(Config.withDefault(256))
  }),
  apiKeyCacheTtlMs: Config.schema(between(0, 3_600_000), "API_KEY_CACHE_TTL_MS").pipe(Config.withDefault(60_000)),
  readCacheTtlMs: Config.schema(between(0, 3_600_000), "READ_CACHE_TTL_MS").pipe(Config.withDefault(60_000)),
  gameSessionIdleSeconds: Config.schema(between(1, 2_592_000), "GAME_SESSION_IDLE_SECONDS").pipe(
    Config.withDefault(1800)
  ),
  database: Config.all({
    statementTimeoutMs: Config.schema(between(100, 600_000), "DATABASE_STATEMENT_TIMEOUT_MS").pipe(
      Config.withDefault(5_000)
    )
  }),
  reports: Config.all({
    statementTimeoutMs: Config.schema(between(100, 3_600_000), "REPORTS_STATEMENT_TIMEOUT_MS").pipe(
      Config.withDefault(15_000)
    ),
    maxConnections: Config.schema(between(1, 100), "REPORTS_DB_CONNECTIONS").pipe(Config.withDefault(3)),
    total: Config.schema(between(1, 1000), "REPORTS_MAX_CONCURRENT").pipe(Config.withDefault(4)),
    perMerchant: Config.schema(between(1, 1000), "REPORTS_MAX_PER_MERCHANT").pipe(Config.withDefault(1)),
    exportPauseMs: Config.schema(between(0, 10_000), "REPORTS_EXPORT_PAUSE_MS").pipe(Config.withDefault(100)),
    exports: Config.schema(between(1, 1000), "REPORTS_MAX_EXPORTS").pipe(Config.withDefault(2)),
    dbShare: Config.schema(
      Schema.Finite.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(1)),
      "REPORTS_DB_SHARE"
    ).pipe(Config.withDefault(0.25)),
    dbShareTotal: Config.schema(
      Schema.Finite.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(100)),
      "REPORTS_DB_SHARE_TOTAL"
    ).pipe(Config.withDefault(0.5)),
    dbBurstMs: Config.schema(between(0, 600_000), "REPORTS_DB_BURST_MS").pipe(Config.withDefault(1_000)),
    dbStatements: Config.schema(between(1, 100), "REPORTS_DB_STATEMENTS").pipe(Config.withDefault(1))
  }),
  backoffice: Config.all({
    smtpUrl: Config.option(Config.schema(Schema.Redacted(SmtpUrl), "SMTP_URL")),
    mailFrom: Config.schema(MailFrom, "MAIL_FROM").pipe(Config.withDefault("Operator Gateway <no-reply@localhost>")),
    sessionIdleSeconds: Config.schema(between(60, 86_400), "BACKOFFICE_SESSION_IDLE_SECONDS").pipe(
      Config.withDefault(1800)
    ),
    sessionMaxSeconds: Config.schema(between(300, 30 * 86_400), "BACKOFFICE_SESSION_MAX_SECONDS").pipe(
      Config.withDefault(43_200)
    )
  }),
  // scrypt's cost (log2 N) for the passwords and e-mail codes hashed from now on; below the default only for tests.
  passwordHashCost: Config.schema(between(costRange.minimum, costRange.maximum), "PASSWORD_HASH_COST").pipe(
    Config.withDefault(defaultCost)
  ),
  migrateOnStart: Config.schema(AnyCaseBoolean, "MIGRATE_ON_START").pipe(Config.withDefault(true)),
  shutdownDrainSeconds: Config.schema(between(0, 300), "SHUTDOWN_DRAIN_SECONDS").pipe(Config.withDefault(5)),
  tracing: TracingConfig
})
export type GatewayConfig = Config.Success<typeof GatewayConfig>

/** `PUBLIC_BASE_URL` without a trailing slash, or the local address of the server. */
export const publicBaseUrl = (config: GatewayConfig): string =>
  Option.match(config.publicBaseUrl, {
    onNone: () => `http://127.0.0.1:${config.port}`,
    onSome: (url) => url.href.replace(/\/+$/, "")
  })
