import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import * as Paging from "../src/Paging.ts"

const Limit = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))
const Total = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 5_000 }))
const Page = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 300 }))

describe("Paging", () => {
  it.prop("walking nextPage from page 1 covers every element exactly once", [Limit, Total], ([limit, total]) => {
    const seen: Array<number> = []
    let page = 1
    for (let guard = 0; guard <= total + 1; guard++) {
      const offset = Paging.offset({ page, limit })
      for (let i = offset; i < Math.min(offset + limit, total); i++) seen.push(i)
      const meta = Paging.meta({ page, limit }, total)
      if (meta.nextPage === 0) break
      assert.strictEqual(meta.nextPage, page + 1)
      page = meta.nextPage
    }
    assert.deepStrictEqual(seen, Array.from({ length: total }, (_, i) => i))
  })

  it.prop("neighbours exist or are 0; totals agree", [Page, Limit, Total], ([page, limit, total]) => {
    const meta = Paging.meta({ page, limit }, total)
    assert.strictEqual(meta.totalPage, Math.ceil(total / limit))
    assert.isTrue(meta.nextPage === 0 || (meta.nextPage >= 1 && meta.nextPage <= meta.totalPage))
    assert.isTrue(meta.prevPage === 0 || (meta.prevPage >= 1 && meta.prevPage <= meta.totalPage))
    assert.strictEqual(meta.currentPage, page)
    assert.strictEqual(meta.totalElements, total)
  })

  it("answers the seed's fields for the usual cases", () => {
    assert.deepStrictEqual({ ...Paging.meta({ page: 1, limit: 20 }, 45) }, {
      currentPage: 1, limit: 20, nextPage: 2, prevPage: 0, totalElements: 45, totalPage: 3
    })
    assert.deepStrictEqual({ ...Paging.meta({ page: 3, limit: 20 }, 45) }, {
      currentPage: 3, limit: 20, nextPage: 0, prevPage: 2, totalElements: 45, totalPage: 3
    })
    assert.deepStrictEqual({ ...Paging.meta({ page: 9, limit: 20 }, 45) }, {
      currentPage: 9, limit: 20, nextPage: 0, prevPage: 0, totalElements: 45, totalPage: 3
    })
    assert.deepStrictEqual({ ...Paging.meta({ page: 1, limit: 20 }, 0) }, {
      currentPage: 1, limit: 20, nextPage: 0, prevPage: 0, totalElements: 0, totalPage: 0
    })
  })
})
