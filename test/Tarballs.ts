import { execFile } from "node:child_process"
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"

const root = join(import.meta.dirname, "..")
const run = promisify(execFile)
/** Held while packages are built and packed: a build empties its `dist/`, which another test file may be packing. */
const lock = join(tmpdir(), `gateway-pack-lock-${Buffer.from(root).toString("base64url").slice(-24)}`)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const locked = async <A>(body: () => Promise<A>): Promise<A> => {
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      // A lock left by a killed run is taken over after 5 minutes.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true })
      } catch {
        // released meanwhile
      }
      await sleep(200)
    }
  }
  try {
    return await body()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/**
 * The workspace packages `names` as another project installs them: each built for npm (`packages/<name>/build.ts`)
 * and packed (one test file at a time), then the tarballs installed into `project`, a blank project made in
 * `work`, with the `tsconfig.json` that `tsc --init` writes.
 */
export const installTarballs = async (names: ReadonlyArray<string>, work: string, project: string) => {
  await locked(async () => {
    for (const name of names) await run(process.execPath, [join(root, "packages", name, "build.ts")], { cwd: root })
    for (const name of names) {
      await run("npm", ["pack", join(root, "packages", name, "dist"), "--pack-destination", work], { cwd: work })
    }
  })
  const tarballs = readdirSync(work).filter((name) => name.endsWith(".tgz")).map((name) => join(work, name))
  if (tarballs.length !== names.length) throw new Error(`npm pack made ${tarballs.length} tarballs for ${names.length} packages`)
  mkdirSync(project)
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }))
  const quiet = { cwd: project, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: "false" } }
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...tarballs], quiet)
  await run(join(root, "node_modules", ".bin", "tsc"), ["--init"], quiet)
}
