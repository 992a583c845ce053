import type { HttpServerResponse } from "effect/http"

/** The bounds of a {@link ResponseCache}. `maxBytes` 0 keeps nothing. */
export interface ResponseCacheOptions {
  readonly maxEntries: number
  /** Bodies, keys and {@link entryOverhead} per entry, in bytes. */
  readonly maxBytes: number
}

/** What an entry is counted for beyond its body and key: the response, its headers and the map entry. */
export const entryOverhead = 256

interface Entry {
  readonly response: HttpServerResponse.HttpServerResponse
  readonly bytes: number
}

/**
 * Finished answers (status, headers and encoded body), kept under a version
 * of the data they were made from: a lookup with another version drops every
 * answer kept, and answers made from an older version are not kept. Bounded
 * by entries and bytes; the least recently used answers make room.
 *
 * Not effect's `Cache`: its capacity counts entries, not bytes, and a hit
 * here is a synchronous map read on the hottest path of the gateway.
 */
export interface ResponseCache {
  /** The answer kept for `key`, when it was made from data of `version`. */
  readonly get: (version: number, key: string) => HttpServerResponse.HttpServerResponse | undefined
  /** Keeps `response`, whose body is `bodyBytes` long, for `key`, when `version` is the one last looked up. */
  readonly set: (version: number, key: string, response: HttpServerResponse.HttpServerResponse, bodyBytes: number) => void
  readonly size: () => { readonly entries: number; readonly bytes: number }
}

/** An empty cache with these bounds. */
export const make = (options: ResponseCacheOptions): ResponseCache => {
  const entries = new Map<string, Entry>()
  let version: number | undefined
  let bytes = 0
  const evictOldest = () => {
    for (const [key, entry] of entries) {
      entries.delete(key)
      bytes -= entry.bytes
      return
    }
  }
  return {
    get: (wanted, key) => {
      if (wanted !== version) {
        entries.clear()
        bytes = 0
        version = wanted
        return undefined
      }
      const entry = entries.get(key)
      if (entry === undefined) return undefined
      entries.delete(key)
      entries.set(key, entry)
      return entry.response
    },
    set: (made, key, response, bodyBytes) => {
      const cost = bodyBytes + 2 * key.length + entryOverhead
      if (made !== version || cost > options.maxBytes || options.maxEntries < 1) return
      const previous = entries.get(key)
      if (previous !== undefined) {
        entries.delete(key)
        bytes -= previous.bytes
      }
      while (entries.size >= options.maxEntries || bytes + cost > options.maxBytes) evictOldest()
      entries.set(key, { response, bytes: cost })
      bytes += cost
    },
    size: () => ({ entries: entries.size, bytes })
  }
}
