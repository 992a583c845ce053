#!/usr/bin/env node
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Console, Effect, Layer, Schema } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { formatApiKey } from "@gateway/domain/ApiKey"
import { CreateMerchantRequest, MerchantCreated, MerchantId } from "@gateway/domain/Merchant"
import { ApiKeyRepo } from "@gateway/domain/ports/ApiKeyRepo"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { createMerchant } from "@gateway/domain/usecases/CreateMerchant"
import { AdminAuth } from "@gateway/adapters-http"
import { DataCipher, Database, Migrations, Reencrypt } from "@gateway/adapters-pg"
import { randomUUID } from "node:crypto"
import { databaseOptions, repositories } from "./App.ts"
import { GatewayConfig } from "./Config.ts"
import { version } from "./Lifecycle.ts"
import * as Secrets from "./Secrets.ts"

/** The database and the repositories, configured from the environment. */
const Repositories = Layer.unwrap(
  Effect.gen(function*() {
    const config = yield* GatewayConfig
    return repositories(config, yield* Secrets.dataEncryptionKeys(config))
  })
)

const printJson = (value: unknown) => Console.log(JSON.stringify(value, null, 2))

const migrate = Command.make("migrate", {}, () =>
  Effect.gen(function*() {
    const config = yield* GatewayConfig
    const database = yield* Layer.build(Database.layer({ ...databaseOptions(config), migrate: true }))
    const applied = yield* Migrations.appliedId.pipe(Effect.provide(database))
    yield* Console.log(`migrations applied: the database schema is at migration ${applied}`)
  }).pipe(Effect.scoped)
).pipe(Command.withDescription(
  "Apply the database migrations and exit (whatever MIGRATE_ON_START says): for rolling upgrades, before the new instances start"
))

const secretsReencrypt = Command.make("reencrypt", {}, () =>
  Effect.gen(function*() {
    const config = yield* GatewayConfig
    const keys = yield* Secrets.dataEncryptionKeys(config)
    const done = yield* Reencrypt.reencryptAll.pipe(
      Effect.provide(Layer.merge(Database.layer(databaseOptions(config)), DataCipher.layerKeys(keys)))
    )
    yield* Console.log(
      `re-encrypted with the first DATA_ENCRYPTION_KEY: the secrets of ${done.merchants} merchants and ` +
        `${done.launchKeys} launch signing keys; the other keys listed are no longer needed`
    )
  })
).pipe(Command.withDescription(
  "Re-encrypt every secret stored at rest with the first key of DATA_ENCRYPTION_KEY (after a rotation: new,old)"
))

const secrets = Command.make("secrets").pipe(
  Command.withDescription("Secrets stored at rest"),
  Command.withSubcommands([secretsReencrypt])
)

const tokenIssue = Command.make(
  "issue",
  {
    scope: Flag.Literals("scope", ["read:users", "write:users"]).pipe(
      Flag.atLeast(1),
      Flag.withDescription("A scope to grant (repeat for several)")
    ),
    ttl: Flag.Int("ttl").pipe(Flag.withDescription("Lifetime in seconds"), Flag.withDefault(3600)),
    subject: Flag.String("subject").pipe(Flag.withDescription("Who the token is for"), Flag.withDefault("ops"))
  },
  ({ scope, ttl, subject }) =>
    Effect.gen(function*() {
      const options = yield* Secrets.adminTokens(yield* GatewayConfig)
      if (options.secret === undefined) return yield* Effect.fail(new Secrets.StartupError("AUTH_JWT_SECRET is not set"))
      const token = yield* AdminAuth.mint({
        secret: options.secret,
        scopes: scope,
        subject,
        expiresIn: `${ttl}s`,
        issuer: options.issuer,
        audience: options.audience,
        jti: randomUUID()
      })
      yield* Console.log(token)
    })
).pipe(Command.withDescription("Mint an admin bearer token signed with AUTH_JWT_SECRET"))

const token = Command.make("token").pipe(
  Command.withDescription("Admin bearer tokens"),
  Command.withSubcommands([tokenIssue])
)

const merchantCreate = Command.make(
  "create",
  {
    country: Flag.String("country").pipe(Flag.atLeast(1), Flag.withDescription("ISO 3166-1 alpha-2 code (repeatable)")),
    company: Flag.String("company").pipe(Flag.withDescription("Company name")),
    email: Flag.String("email").pipe(Flag.withDescription("Contact e-mail, unique")),
    providerId: Flag.Int("provider-id").pipe(Flag.withDefault(1))
  },
  ({ country, company, email, providerId }) =>
    Effect.gen(function*() {
      const request = yield* Schema.decodeUnknownEffect(CreateMerchantRequest)({
        countryCodes: country,
        companyName: company,
        email,
        providerId
      })
      const created = yield* createMerchant(request)
      yield* printJson(Schema.encodeSync(MerchantCreated)(created))
    }).pipe(Effect.provide(Repositories))
).pipe(Command.withDescription("Create a merchant and print it with its credentials (shown once)"))

const merchant = Command.make("merchant").pipe(
  Command.withDescription("Merchant accounts"),
  Command.withSubcommands([merchantCreate])
)

const apiKeyIssue = Command.make(
  "issue",
  {
    merchantId: Argument.Int("merchant-id").pipe(Argument.withDescription("The merchant's id")),
    prefix: Flag.Literals("prefix", ["sv_live", "sv_test"]).pipe(Flag.withDefault("sv_live"))
  },
  ({ merchantId, prefix }) =>
    Effect.gen(function*() {
      const id = yield* Schema.decodeUnknownEffect(MerchantId)(merchantId)
      yield* (yield* MerchantRepo).findById(id)
      const issued = yield* (yield* ApiKeyRepo).issue(id, prefix)
      yield* printJson({ apiKey: formatApiKey(issued.apiKey), prefix, slug: issued.apiKey.slug })
    }).pipe(Effect.provide(Repositories))
).pipe(Command.withDescription("Issue an API key for a merchant (the key is shown once)"))

const apiKey = Command.make("api-key").pipe(
  Command.withDescription("Merchant API keys"),
  Command.withSubcommands([apiKeyIssue])
)

const gateway = Command.make("gateway").pipe(
  Command.withDescription("Operator Gateway operations: migrations, secrets, admin tokens, merchants and API keys"),
  Command.withSubcommands([migrate, secrets, token, merchant, apiKey])
)

gateway.pipe(
  Command.run({ version }),
  Effect.tapCause((cause) => Console.error(`error: ${cause.reasons.map((r) => r._tag === "Fail" ? String(r.error?.message ?? r.error) : "unexpected failure").join("; ")}`)),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
