import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"

/** The back office's script and style sheet as the gateway inlines them. */
export interface BackofficeAssets {
  readonly script: string
  readonly style: string
}

/**
 * The built back office (`dist/backoffice.js`, `dist/backoffice.css`, written
 * by `build.ts` through apps/server/build.ts). The server bundle replaces this
 * module with the same two texts, so it reads no file.
 */
export const backofficeAssets = (): BackofficeAssets => {
  const read = (name: string) => {
    const file = join(import.meta.dirname, "dist", name)
    if (!existsSync(file)) throw new Error(`${file} is missing: build it with \`node apps/server/build.ts\``)
    return readFileSync(file, "utf8")
  }
  return { script: read("backoffice.js"), style: read("backoffice.css") }
}
