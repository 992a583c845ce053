import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"

/**
 * Scalar's standalone script as UTF-8 bytes, from Effect's own copy (a 3.2 MB
 * string in a module of `effect` that its package does not export), for
 * `/docs/scalar.js`. The server's bundle replaces this module: there it reads
 * the bytes of `dist/scalar.js` on each request and keeps nothing
 * (apps/server/build.ts).
 */
export const scalarScript = async (): Promise<Uint8Array> => {
  const module = join(dirname(createRequire(import.meta.url).resolve("effect/http-api/HttpApiScalar")), "internal", "httpApiScalar.js")
  const { javascript } = await import(pathToFileURL(module).href) as { readonly javascript: string }
  return Buffer.from(javascript)
}

/**
 * The API reference's own style sheet (`docs.css`: mends to Scalar's layout),
 * for `/docs/docs.css`. The server's bundle serves its minified copy,
 * `dist/docs.css`, written by apps/server/build.ts.
 */
export const docsStyle = (): Promise<Uint8Array> => readFile(new URL("./docs.css", import.meta.url))
