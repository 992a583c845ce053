import { ApiKeyRepo } from "@gateway/domain/ports/ApiKeyRepo"
import { Cache, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import * as ApiKeyRepoPg from "../ApiKeyRepoPg.ts"
import { ChangeFeed } from "./ChangeFeed.ts"
import * as Hits from "./Hits.ts"

/**
 * {@link ApiKeyRepoPg} with what is stored of each slug kept for `ttlMs`:
 * the key is still verified against the stored hash on every request, but
 * the table is read at most once per slug and `ttlMs`. A slug with no key is
 * never kept, so a key works as soon as it is issued. A key revoked through
 * this instance is forgotten at once (a read still in flight is not kept)
 * and again once the transaction it is part of commits (until then another
 * request may read the row as committed before, and keep it), through
 * another instance as soon as the {@link ChangeFeed} reports it.
 * `ttlMs` 0 reads the table every time.
 */
export const layer = (ttlMs: number): Layer.Layer<ApiKeyRepo, never, SqlClient | ChangeFeed> =>
  Layer.effect(
    ApiKeyRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const find = ApiKeyRepoPg.findStoredKey(sql)
      if (ttlMs <= 0) return yield* ApiKeyRepoPg.make(find)
      const cache = yield* Hits.make(find, ttlMs, Option.isSome)
      yield* Hits.forgetChanges(cache, "api_keys", (slug) => slug)
      const repo = yield* ApiKeyRepoPg.make((slug) => Cache.get(cache, slug))
      return ApiKeyRepo.of({
        ...repo,
        revoke: (merchantId, slug) =>
          repo.revoke(merchantId, slug).pipe(Effect.ensuring(Hits.forgetChange(cache, slug, sql.afterCommit)))
      })
    })
  )
