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
 * Bundles a browser app: `entry` (TypeScript, with everything it imports) and
 * `style` (CSS, with its `@import`s), minified for the browsers the pages
 * support, written as `<name>.js` and `<name>.css` into `dir`.
 */
export const bundleBrowserApp = async (entry: string, style: string, dir: string, name: string): Promise<PlayBundle> => {
  const common = { bundle: true, minify: true, write: false, legalComments: "none", logLevel: "warning" } as const
  const [js, css] = await Promise.all([
    build({ ...common, entryPoints: [entry], format: "iife", platform: "browser", target: ["es2022"], charset: "utf8", outfile: `${name}.js` }),
    build({ ...common, entryPoints: [style], target: ["chrome100", "firefox100", "safari15"], outfile: `${name}.css` })
  ])
  const text = (files: ReadonlyArray<{ readonly text: string }>) => files.map((f) => f.text).join("")
  const bundle = { script: text(js.outputFiles).trim(), style: text(css.outputFiles).trim() }
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, `${name}.js`), bundle.script)
  writeFileSync(join(dir, `${name}.css`), bundle.style)
  return bundle
}

/**
 * Bundles the page (`src/main.ts` and everything it imports, the domain's
 * draws included) and its style sheet (`style/page.css` and its `@import`s)
 * into {@link distDir}.
 */
export const buildPlay = (): Promise<PlayBundle> =>
  bundleBrowserApp(join(here, "src", "main.ts"), join(here, "style", "page.css"), distDir, "play")

/** The built round page (a round's `roundDetailsUrl`): its script and style sheet, minified. */
export const buildRoundPage = (): Promise<PlayBundle> =>
  bundleBrowserApp(join(here, "src", "round.ts"), join(here, "style", "round.css"), distDir, "round")
