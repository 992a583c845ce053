import { build } from "esbuild"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/** The built page: its script and style sheet, minified. */
export interface PlayBundle {
  readonly script: string
  readonly style: string
}

const here = import.meta.dirname

/** Where the bundle is written: `dist/play.js` and `dist/play.css`, read by `assets.ts`. */
export const distDir = join(here, "dist")

/**
 * Bundles the page (`src/main.ts` and everything it imports, the domain's
 * draws included) and its style sheet (`style/page.css` and its `@import`s),
 * minified for the browsers the page supports, into {@link distDir}.
 */
export const buildPlay = async (): Promise<PlayBundle> => {
  const common = { bundle: true, minify: true, write: false, legalComments: "none", logLevel: "warning" } as const
  const [js, css] = await Promise.all([
    build({ ...common, entryPoints: [join(here, "src", "main.ts")], format: "iife", platform: "browser", target: ["es2022"], charset: "utf8", outfile: "play.js" }),
    build({ ...common, entryPoints: [join(here, "style", "page.css")], target: ["chrome100", "firefox100", "safari15"], outfile: "play.css" })
  ])
  const text = (files: ReadonlyArray<{ readonly text: string }>) => files.map((f) => f.text).join("")
  const bundle = { script: text(js.outputFiles).trim(), style: text(css.outputFiles).trim() }
  mkdirSync(distDir, { recursive: true })
  writeFileSync(join(distDir, "play.js"), bundle.script)
  writeFileSync(join(distDir, "play.css"), bundle.style)
  return bundle
}

/** The built round page (a round's `roundDetailsUrl`): its script and style sheet, minified. */
export const buildRoundPage = async (): Promise<PlayBundle> => {
  const common = { bundle: true, minify: true, write: false, legalComments: "none", logLevel: "warning" } as const
  const [js, css] = await Promise.all([
    build({ ...common, entryPoints: [join(here, "src", "round.ts")], format: "iife", platform: "browser", target: ["es2022"], outfile: "round.js" }),
    build({ ...common, entryPoints: [join(here, "style", "round.css")], target: ["chrome100", "firefox100", "safari15"], outfile: "round.css" })
  ])
  const text = (files: ReadonlyArray<{ readonly text: string }>) => files.map((f) => f.text).join("")
  const bundle = { script: text(js.outputFiles).trim(), style: text(css.outputFiles).trim() }
  mkdirSync(distDir, { recursive: true })
  writeFileSync(join(distDir, "round.js"), bundle.script)
  writeFileSync(join(distDir, "round.css"), bundle.style)
  return bundle
}
