import { build } from "esbuild"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/** The built back office: its script and style sheet, minified. */
export interface BackofficeBundle {
  readonly script: string
  readonly style: string
}

const here = import.meta.dirname

/** Where the bundle is written: `dist/backoffice.js` and `dist/backoffice.css`, read by `assets.ts`. */
export const distDir = join(here, "dist")

/**
 * Bundles the back office (`src/main.ts` and what it imports; types from
 * `@gateway/client` vanish at build) and its style sheet (`style/app.css`),
 * minified, into {@link distDir}.
 */
export const buildBackoffice = async (): Promise<BackofficeBundle> => {
  const common = { bundle: true, minify: true, write: false, legalComments: "none", logLevel: "warning" } as const
  const [js, css] = await Promise.all([
    build({ ...common, entryPoints: [join(here, "src", "main.ts")], format: "iife", platform: "browser", target: ["es2022"], charset: "utf8", outfile: "backoffice.js" }),
    build({ ...common, entryPoints: [join(here, "style", "app.css")], target: ["chrome100", "firefox100", "safari15"], outfile: "backoffice.css" })
  ])
  const text = (files: ReadonlyArray<{ readonly text: string }>) => files.map((f) => f.text).join("")
  const bundle = { script: text(js.outputFiles).trim(), style: text(css.outputFiles).trim() }
  mkdirSync(distDir, { recursive: true })
  writeFileSync(join(distDir, "backoffice.js"), bundle.script)
  writeFileSync(join(distDir, "backoffice.css"), bundle.style)
  return bundle
}
