import { Effect } from "effect"
import type { Merchant, MerchantQuery } from "../Merchant.ts"
import * as Paging from "../Paging.ts"
import { MerchantRepo } from "../ports/MerchantRepo.ts"

/** The answer of the admin merchants list: a page of merchants (no secrets) and its metadata. */
export interface MerchantList {
  readonly data: ReadonlyArray<Merchant>
  readonly meta: Paging.PageMeta
}

/** One page of merchants, newest first, searched and filtered in the repository. */
export const listMerchants = Effect.fn("listMerchants")(function*(
  query: MerchantQuery
): Effect.fn.Return<MerchantList, never, MerchantRepo> {
  const page = yield* (yield* MerchantRepo).list(query)
  return { data: page.merchants, meta: Paging.meta(query, page.total) }
})
