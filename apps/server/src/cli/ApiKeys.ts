import { DateTime, Effect, Schema } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { ApiKeyPrefix, formatApiKey } from "@gateway/domain/ApiKey"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { ApiKeyRepo } from "@gateway/domain/ports/ApiKeyRepo"
import { cliActor } from "@gateway/domain/Audit"
import { issueApiKeyAudited, revokeApiKeyAudited } from "@gateway/domain/usecases/AuditedChanges"
import { decodeMerchantId, merchantId } from "./Merchants.ts"
import { printJson } from "./Output.ts"
import { Repositories } from "./Repositories.ts"

const issue = Command.make(
  "issue",
  {
    merchantId,
    prefix: Flag.Literals("prefix", ApiKeyPrefix.literals).pipe(
      Flag.withDescription("sv_live for real money, sv_test for integration tests (default sv_live)"),
      Flag.withDefault("sv_live")
    )
  },
  ({ merchantId, prefix }) =>
    Effect.gen(function*() {
      const issued = yield* issueApiKeyAudited(yield* decodeMerchantId(merchantId), prefix, cliActor)
      yield* printJson({ apiKey: formatApiKey(issued.apiKey), prefix, slug: issued.apiKey.slug })
    }).pipe(Effect.provide(Repositories))
).pipe(Command.withDescription("Issue an API key for a merchant (the key is shown once)"))

const list = Command.make(
  "list",
  {
    merchantId,
    limit: Flag.Int("limit").pipe(Flag.withDescription("At most this many keys, 1 to 1000 (default 100)"), Flag.withDefault(100))
  },
  ({ merchantId, limit }) =>
    Effect.gen(function*() {
      const id = yield* decodeMerchantId(merchantId)
      const bounded = yield* Schema.decodeUnknownEffect(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 })))(limit)
      yield* (yield* MerchantRepo).findById(id)
      const keys = yield* (yield* ApiKeyRepo).list(id, bounded)
      yield* printJson(keys.map((key) => ({
        slug: key.slug,
        prefix: key.prefix,
        createdAt: DateTime.formatIso(key.createdAt),
        revokedAt: key.revokedAt === undefined ? null : DateTime.formatIso(key.revokedAt)
      })))
    }).pipe(Effect.provide(Repositories))
).pipe(Command.withDescription("List a merchant's API keys, newest first: slug, prefix, when created and revoked (never the key)"))

const revoke = Command.make(
  "revoke",
  {
    merchantId,
    slug: Argument.String("slug").pipe(Argument.withDescription("The key's slug: its last part, after the second dot"))
  },
  ({ merchantId, slug }) =>
    Effect.gen(function*() {
      const id = yield* decodeMerchantId(merchantId)
      const text = yield* Schema.decodeUnknownEffect(Schema.String.check(Schema.isMaxLength(64)))(slug)
      const revoked = yield* revokeApiKeyAudited(id, text, cliActor)
      if (!revoked) return yield* Effect.fail(new Error(`merchant ${id} has no live API key with slug ${JSON.stringify(text)}`))
      yield* printJson({ slug: text, revoked: true })
    }).pipe(Effect.provide(Repositories))
).pipe(Command.withDescription("Revoke a merchant's API key: refused from then on"))

/** `gateway api-key issue|list|revoke`. */
export const apiKey = Command.make("api-key").pipe(
  Command.withDescription("Merchant API keys"),
  Command.withSubcommands([issue, list, revoke])
)
