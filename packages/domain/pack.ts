import { execFileSync } from "node:child_process"
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/** A package's `package.json`, as far as its build for npm reads it. */
interface Manifest {
  readonly name: string
  readonly version: string
  readonly description: string
  readonly license: string
  readonly dependencies: Record<string, string>
}

/** An `exports` entry of the build: the JavaScript and its declarations. */
export const entry = (path: string) => ({ types: `./${path}.d.ts`, default: `./${path}.js` })

/**
 * Builds the workspace package in `dir` for npm into `dir/dist/` (the domain's and the client's `build.ts`): its
 * `tsconfig.build.json` compiled by the project's tsc to ESM JavaScript, `.d.ts` and source maps, relative
 * specifiers of the declarations rewritten from `.ts` to `.js`, a package.json with `exports` (and
 * `main`/`types` at `src/index`) and the package's dependencies plus `extraDependencies`, its README and
 * CHANGELOG. `npm pack <dir>/dist` makes the tarball.
 */
export const buildForNpm = (
  dir: string,
  options: { readonly exports: Record<string, unknown>; readonly extraDependencies?: Record<string, string> }
) => {
  const dist = join(dir, "dist")
  const tsc = join(dir, "..", "..", "node_modules", ".bin", "tsc")
  rmSync(dist, { recursive: true, force: true })
  execFileSync(tsc, ["-p", join(dir, "tsconfig.build.json")], { stdio: "inherit" })

  // tsc rewrites `./Money.ts` to `./Money.js` in JavaScript only; declarations keep `.ts`, which a consumer's tsc
  // refuses without `allowImportingTsExtensions`.
  const files = (at: string): Array<string> =>
    readdirSync(at, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? files(join(at, e.name)) : [join(at, e.name)])
  for (const file of files(dist).filter((f) => f.endsWith(".d.ts"))) {
    const text = readFileSync(file, "utf8")
    writeFileSync(file, text.replace(/((?:from\s+|import\()\s*["']\.{1,2}\/[^"']*)\.ts(["'])/g, "$1.js$2"))
  }

  const source: Manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
  const manifest = {
    name: source.name,
    version: source.version,
    description: source.description,
    license: source.license,
    type: "module",
    main: "./src/index.js",
    types: "./src/index.d.ts",
    exports: { ...options.exports, "./package.json": "./package.json" },
    engines: { node: ">=20" },
    dependencies: { ...source.dependencies, ...options.extraDependencies }
  }
  writeFileSync(join(dist, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`)
  for (const doc of ["README.md", "CHANGELOG.md"]) copyFileSync(join(dir, doc), join(dist, doc))
}
