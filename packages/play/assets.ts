import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"

/** The page's script and style sheet as the gateway inlines them. */
export interface PlayAssets {
  readonly script: string
  readonly style: string
}

/**
 * The built page (`dist/play.js`, `dist/play.css`, written by `build.ts`,
 * which `npm ci` runs through apps/server/build.ts). The server bundle
 * replaces this module with the same two texts, so it reads no file.
 */
export const playAssets = (): PlayAssets => {
  const dir = join(import.meta.dirname, "dist")
  const read = (name: string) => {
    const file = join(dir, name)
    if (!existsSync(file)) throw new Error(`${file} is missing: build the page with \`node apps/server/build.ts\``)
    return readFileSync(file, "utf8")
  }
  return { script: read("play.js"), style: read("play.css") }
}

/** The built round page (`dist/round.js`, `dist/round.css`), served beside a round's details; replaced alike in the server bundle. */
export const roundAssets = (): PlayAssets => {
  const dir = join(import.meta.dirname, "dist")
  const read = (name: string) => {
    const file = join(dir, name)
    if (!existsSync(file)) throw new Error(`${file} is missing: build the page with \`node apps/server/build.ts\``)
    return readFileSync(file, "utf8")
  }
  return { script: read("round.js"), style: read("round.css") }
}
