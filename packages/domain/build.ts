import { execFileSync } from "node:child_process"
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/**
 * Builds `@gateway/domain` for npm into `dist/`: ESM JavaScript, `.d.ts` and source maps (sources inlined) of
 * `src/` and `testing/`, with a package.json whose `exports` point at them. In the workspace the package is used
 * from its TypeScript sources (Node strips the types); Node strips types nowhere under `node_modules`, so what is
 * installed from the registry is this build. `npm pack packages/domain/dist` makes the tarball.
 */
const here = import.meta.dirname
const dist = join(here, "dist")
const tsc = join(here, "..", "..", "node_modules", ".bin", "tsc")

rmSync(dist, { recursive: true, force: true })
execFileSync(tsc, ["-p", join(here, "tsconfig.build.json")], { stdio: "inherit" })

// tsc rewrites `./Money.ts` to `./Money.js` in JavaScript only; declarations keep `.ts`, which a consumer's tsc
// refuses without `allowImportingTsExtensions`.
const files = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]
  )
for (const file of files(dist).filter((f) => f.endsWith(".d.ts"))) {
  const text = readFileSync(file, "utf8")
  writeFileSync(file, text.replace(/((?:from\s+|import\()\s*["']\.{1,2}\/[^"']*)\.ts(["'])/g, "$1.js$2"))
}

interface Manifest {
  readonly name: string
  readonly version: string
  readonly description: string
  readonly license: string
  readonly dependencies: Record<string, string>
}
const source: Manifest = JSON.parse(readFileSync(join(here, "package.json"), "utf8"))
const entry = (path: string) => ({ types: `./${path}.d.ts`, default: `./${path}.js` })
const manifest = {
  name: source.name,
  version: source.version,
  description: source.description,
  license: source.license,
  type: "module",
  main: "./src/index.js",
  types: "./src/index.d.ts",
  exports: {
    ".": entry("src/index"),
    "./testing": entry("testing/index"),
    "./ports/*": entry("src/ports/*"),
    "./usecases/*": entry("src/usecases/*"),
    "./games/*": entry("src/games/*"),
    "./*": entry("src/*"),
    "./package.json": "./package.json"
  },
  engines: { node: ">=20" },
  dependencies: source.dependencies
}
writeFileSync(join(dist, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`)
for (const doc of ["README.md", "CHANGELOG.md"]) copyFileSync(join(here, doc), join(dist, doc))
