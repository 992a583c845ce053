#!/usr/bin/env node
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Console, Effect, Layer } from "effect"
import { Command, Flag } from "effect/cli"
import { randomUUID } from "node:crypto"
import manifest from "../package.json" with { type: "json" }
import { GatewayConfig } from "./Config.ts"
import { apiKey } from "./cli/ApiKeys.ts"
import { deliveries } from "./cli/Deliveries.ts"
import { merchant } from "./cli/Merchants.ts"
import { merchantSecrets } from "./cli/Secrets.ts"
import { load, presenter, reportFailure } from "./cli/Output.ts"

const migrate = Command.make("migrate", {}, () =>
  Effect.gen(function*() {
    const config = yield* GatewayConfig
    const { Database, Migrations } = yield* load(() => import("@gateway/adapters-pg"))
    const { databaseOptions } = yield* load(() => import("./App.ts"))
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
    const Secrets = yield* load(() => import("./Secrets.ts"))
    const { DataCipher, Database, Reencrypt } = yield* load(() => import("@gateway/adapters-pg"))
    const { databaseOptions } = yield* load(() => import("./App.ts"))
    const keys = yield* Secrets.dataEncryptionKeys(config)
    const done = yield* Reencrypt.reencryptAll.pipe(
      Effect.provide(Layer.merge(Database.layer(databaseOptions(config)), DataCipher.layerKeys(keys)))
    )
    yield* Console.log(
      `re-encrypted with the first DATA_ENCRYPTION_KEY: the secrets of ${done.merchants} merchants and ` +
        `${done.launchKeys} launch signing keys, ${done.totpSecrets} back-office TOTP secrets and ${done.roundLinkKeys} ` +
        "round-link keys; the other keys listed are no longer needed"
    )
  })
).pipe(Command.withDescription(
  "Re-encrypt every secret stored at rest with the first key of DATA_ENCRYPTION_KEY (after a rotation: new,old)"
))

const secrets = Command.make("secrets").pipe(
  Command.withDescription("Secrets: the merchants' signing secrets (rotate, reveal) and their encryption at rest (reencrypt)"),
  Command.withSubcommands([...merchantSecrets, secretsReencrypt])
)

const tokenIssue = Command.make(
  "issue",
  {
    scope: Flag.Literals("scope", ["read:users", "write:users"]).pipe(
      Flag.atLeast(1),
      Flag.withDescription("A scope to grant (required; repeat for several): read:users reads, write:users changes")
    ),
    ttl: Flag.Int("ttl").pipe(
      Flag.withDescription("Lifetime in seconds, at most AUTH_MAX_TOKEN_LIFETIME_SECONDS (default 3600)"),
      Flag.withDefault(3600)
    ),
    subject: Flag.String("subject").pipe(Flag.withDescription("Who the token is for, its sub claim (default ops)"), Flag.withDefault("ops"))
  },
  ({ scope, ttl, subject }) =>
    Effect.gen(function*() {
      const Secrets = yield* load(() => import("./Secrets.ts"))
      const AdminAuth = yield* load(() => import("@gateway/adapters-http/middleware/AdminAuth"))
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

const gateway = Command.make("gateway").pipe(
  Command.withDescription("Operator Gateway operations: migrations, secrets, admin tokens, merchants, API keys and webhook deliveries"),
  Command.withSubcommands([migrate, secrets, token, merchant, apiKey, deliveries])
)

gateway.pipe(
  Command.run({ version: manifest.version }),
  reportFailure,
  Effect.provide(presenter),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
