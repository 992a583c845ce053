import { Schema } from "effect"

/** The page metadata of a list answer, exactly as the seed names it. */
export class PageMeta extends Schema.Class<PageMeta>("@gateway/domain/PageMeta")(Schema.Struct({
  currentPage: Schema.Int,
  limit: Schema.Int,
  nextPage: Schema.Int,
  prevPage: Schema.Int,
  totalElements: Schema.Int,
  totalPage: Schema.Int
}).annotate({
  identifier: "PageMeta",
  description: "The page metadata of a list answer, exactly as the seed names it."
})) {}

/** A page of a list: 1-based `page`, `limit` items per page. */
export interface PageRequest {
  readonly page: number
  readonly limit: number
}

/** Rows to skip for a page. */
export const offset = (request: PageRequest): number => (request.page - 1) * request.limit

/**
 * The metadata of a page. A neighbour page that does not exist is `0`:
 * `nextPage` past the last page, `prevPage` on page 1 or when the previous
 * page is itself past the end.
 */
export const meta = (request: PageRequest, totalElements: number): PageMeta => {
  const totalPage = Math.ceil(totalElements / request.limit)
  const prev = request.page - 1
  return new PageMeta({
    currentPage: request.page,
    limit: request.limit,
    nextPage: request.page < totalPage ? request.page + 1 : 0,
    prevPage: prev >= 1 && prev <= totalPage ? prev : 0,
    totalElements,
    totalPage
  })
}
