/**
 * The baseline's games list: the straightforward implementation, every
 * request going to the database: one page query (ORDER BY / LIMIT / OFFSET,
 * search as a case-insensitive substring of name or id) and one count query.
 */
import type pg from "pg"
import { intParam, invalid, oneOf } from "./baseline-http.ts"

/** A stored game. */
export interface GameRow {
  readonly id: string
  readonly name: string
  readonly release_date: string
  readonly base_launch_url: string | null
  readonly category: number
  readonly image_url: string
}

/** A game as the gateway answers it. */
export const gameJson = (row: GameRow, publicBaseUrl: string) => ({
  id: row.id,
  name: row.name,
  releaseDate: row.release_date,
  baseLaunchUrl: row.base_launch_url ?? `${publicBaseUrl}/play/${row.id}`,
  category: row.category,
  imageUrl: row.image_url.startsWith("/") ? `${publicBaseUrl}${row.image_url}` : row.image_url
})

const sortColumns = { name: "lower(name)", releaseDate: "release_date", category: "category", id: "id" } as const
const sortFields = ["name", "releaseDate", "category", "id"] as const
const searchFieldNames = ["name", "id"] as const

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, "\\$&")

const searchFields = (query: URLSearchParams): ReadonlyArray<"name" | "id"> => {
  const given = query.getAll("searchFields").flatMap((value) => value.split(",")).map((v) => v.trim())
  if (given.length === 0) return searchFieldNames
  return given.map((field) => {
    const found = searchFieldNames.find((name) => name === field)
    if (found === undefined) throw invalid("searchFields", "must be name or id")
    return found
  })
}

/** `GET /api/v1.1/operator-api/games`: `{data, meta}` as in CONTRACT §3. */
export const listGames = async (pool: pg.Pool, query: URLSearchParams, publicBaseUrl: string) => {
  const page = intParam(query, "page", 1, 1, Number.MAX_SAFE_INTEGER)
  const limit = intParam(query, "limit", 20, 1, 100)
  const sortBy = oneOf(query, "sortBy", sortFields, "name")
  const direction = oneOf(query, "sortOrder", ["ASC", "DESC"], "ASC")
  const search = query.get("search") ?? ""
  if (search.length > 128) throw invalid("search", "must be at most 128 characters")

  const params: Array<string | number> = []
  let where = "retired_at IS NULL"
  if (search !== "") {
    params.push(`%${escapeLike(search)}%`)
    const columns = searchFields(query).map((field) => `lower(${field}) LIKE lower($1)`)
    where += ` AND (${columns.join(" OR ")})`
  }
  const order = `${sortColumns[sortBy]} ${direction}, id ${direction}`
  const pageParams = [...params, limit, (page - 1) * limit]
  const [rows, count] = await Promise.all([
    pool.query<GameRow>(
      `SELECT id, name, release_date, base_launch_url, category, image_url FROM games WHERE ${where}
       ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      pageParams
    ),
    pool.query<{ total: number }>(`SELECT count(*)::int AS total FROM games WHERE ${where}`, params)
  ])
  const totalElements = count.rows[0]?.total ?? 0
  const totalPage = Math.ceil(totalElements / limit)
  return {
    data: rows.rows.map((row) => gameJson(row, publicBaseUrl)),
    meta: {
      currentPage: page,
      limit,
      nextPage: page < totalPage ? page + 1 : 0,
      prevPage: page - 1 >= 1 && page - 1 <= totalPage ? page - 1 : 0,
      totalElements,
      totalPage
    }
  }
}
