import type { DateTime, Effect } from "effect"
import { Context } from "effect"
import type { ApiKey, ApiKeyPrefix } from "../ApiKey.ts"
import type { Unauthorized } from "../Auth.ts"
import type { MerchantId } from "../Merchant.ts"

/** A key just issued: the full key appears here once. */
export interface IssuedApiKey {
  readonly apiKey: ApiKey
  readonly createdAt: DateTime.Utc
}

/** What is shown of a stored key: never its secret. */
export interface ApiKeySummary {
  readonly slug: string
  readonly prefix: ApiKeyPrefix
  readonly createdAt: DateTime.Utc
  /** When it was revoked; undefined while it is live. */
  readonly revokedAt: DateTime.Utc | undefined
  /** When it last authenticated a call (to the minute: written at most once a minute per key); undefined if never. */
  readonly lastUsedAt?: DateTime.Utc | undefined
}

/** API keys, stored as a hash of their secret and looked up by slug. */
export class ApiKeyRepo extends Context.Service<ApiKeyRepo, {
  /** The merchant a key belongs to; unknown, revoked or wrong keys fail with Unauthorized. */
  authenticate(key: ApiKey): Effect.Effect<MerchantId, Unauthorized>
  issue(merchantId: MerchantId, prefix: ApiKeyPrefix): Effect.Effect<IssuedApiKey>
  /** Revokes a key of the merchant; `false` when it has no such live key. */
  revoke(merchantId: MerchantId, slug: string): Effect.Effect<boolean>
  /** Every key of the merchant, live and revoked, newest first (at most `limit`). */
  list(merchantId: MerchantId, limit: number): Effect.Effect<ReadonlyArray<ApiKeySummary>>
}>()("@gateway/domain/ports/ApiKeyRepo") {}
