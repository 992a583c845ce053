import { buildForNpm, entry } from "./pack.ts"

/**
 * Builds `@gateway/domain` for npm into `dist/`: ESM JavaScript, `.d.ts` and source maps (sources inlined) of
 * `src/` and `testing/`, with a package.json whose `exports` point at them. In the workspace the package is used
 * from its TypeScript sources (Node strips the types); Node strips types nowhere under `node_modules`, so what is
 * installed from the registry is this build. `npm pack packages/domain/dist` makes the tarball.
 */
buildForNpm(import.meta.dirname, {
  exports: {
    ".": entry("src/index"),
    "./testing": entry("testing/index"),
    "./ports/*": entry("src/ports/*"),
    "./usecases/*": entry("src/usecases/*"),
    "./games/*": entry("src/games/*"),
    "./*": entry("src/*")
  }
})
