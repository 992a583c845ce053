import { buildForNpm, entry } from "@gateway/domain/pack"
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"

/**
 * Builds `@gateway/client` for npm into `dist/`: ESM JavaScript, `.d.ts` and source maps (sources inlined) of
 * `src/`, with a package.json whose `exports` point at them and whose dependencies are `effect` and
 * `@gateway/domain` only. Its types are checked against the domain's build (`packages/domain/build.ts`, run first
 * when missing), as a consumer sees it. `npm pack packages/client/dist` makes the tarball.
 */
const here = import.meta.dirname
const domain = join(here, "..", "domain")

if (!existsSync(join(domain, "dist", "package.json"))) execFileSync(process.execPath, [join(domain, "build.ts")], { stdio: "inherit" })
const domainVersion: string = JSON.parse(readFileSync(join(domain, "package.json"), "utf8")).version
buildForNpm(here, {
  exports: {
    ".": entry("src/index"),
    "./api": entry("src/api/Api"),
    "./api/*": entry("src/api/*"),
    "./*": entry("src/*")
  },
  extraDependencies: { "@gateway/domain": `^${domainVersion}` }
})
