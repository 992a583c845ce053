import { execFileSync } from "node:child_process"
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/**
 * Builds `@gateway/client` for npm into `dist/`: ESM JavaScript, `.d.ts` and source maps (sources inlined) of
 * `src/`, with a package.json whose `exports` point at them and whose dependencies are `effect` and
 * `@gateway/domain` only. Its types are checked against the domain's build (`packages/domain/build.ts`, run first
 * when missing), as a consumer sees it. `npm pack packages/client/dist` makes the tarball.
 */
const here = import.meta.dirname
const dist = join(here, "dist")
const tsc = join(here, "..", "..", "node_modules", ".bin", "tsc")
const domain = join(here, "..", "domain")

if (!existsSync(join(domain, "dist", "package.json"))) execFileSync(process.execPath, [join(domain, "build.ts")], { stdio: "inherit" })
rmSync(dist, { recursive: true, force: true })
execFileSync(tsc, ["-p", join(here, "tsconfig.build.json")], { stdio: "inherit" })

// tsc rewrites `./Api.ts` to `./Api.js` in JavaScript only; declarations keep `.ts`, which a consumer's tsc refuses
// without `allowImportingTsExtensions`.
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
const domainVersion: string = JSON.parse(readFileSync(join(domain, "package.json"), "utf8")).version
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
    "./api": entry("src/api/Api"),
    "./api/*": entry("src/api/*"),
    "./*": entry("src/*"),
    "./package.json": "./package.json"
  },
  engines: { node: ">=20" },
  dependencies: { ...source.dependencies, "@gateway/domain": `^${domainVersion}` }
}
writeFileSync(join(dist, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`)
for (const doc of ["README.md", "CHANGELOG.md"]) copyFileSync(join(here, doc), join(dist, doc))
