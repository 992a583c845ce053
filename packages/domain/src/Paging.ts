import { Schema } from "effect"

/** The page metadata of a list answer, exactly as the seed names it. */
export class PageMeta extends Schema.Class<PageMeta>("@gateway/domain/PageMeta")(Schema.Struct({
  currentPage: Schema.Int.annotate({ description: "This page's number, from 1" }),
  limit: Schema.Int.annotate({ description: "Items per page" }),
  nextPage: Schema.Int.annotate({ description: "The next page's number, 0 on the last page" }),
  prevPage: Schema.Int.annotate({ description: "The previous page's number, 0 on the first page (or past the end)" }),
  totalElements: Schema.Int.annotate({ description: "Items on all pages" }),
  totalPage: Schema.Int.annotate({ description: "The number of pages" })
}).annotate({
  identifier: "PageMeta",
  description: "Where a page of a list is: its number, its size and the totals."
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
