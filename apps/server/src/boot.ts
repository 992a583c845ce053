/**
 * `dist/main.mjs` (built from this file by build.ts), what `npm start` and
 * the release's `bin/start` run: loads the server's bundle, `dist/server.cjs`,
 * as a script with V8's code cache of it.
 *
 * Node's own compile cache (which `dist/cli.mjs` uses) stores a module's code
 * as it is right after compiling: its top level only, since V8 compiles a
 * function when it is first called. A start then still compiles the few
 * thousand functions that evaluating the modules, building the layers and
 * mounting the API call. Here the cache is made once the server has run for
 * {@link cacheAfterMs}, so it holds those functions too: to `/ready` in
 * 740–860 ms against 887–1,098 ms with Node's cache, nine alternated starts
 * each (bench/README.md, "The eleventh pass").
 *
 * The cache sits where Node's would (`NODE_COMPILE_CACHE`, else
 * `dist/.compile-cache` beside the bundle, never the shared temporary
 * directory, where another user of the machine could plant code), one file
 * per Node version, architecture and build of the bundle (its checksum in
 * the name). V8 refuses a cache made by another V8 or with other flags (then
 * the bundle is compiled as without one, and the cache made again). `NODE_DISABLE_COMPILE_CACHE=1` turns it off. A cache
 * that cannot be read or written is skipped, never an error; it is written to
 * a file of its own and renamed, so instances starting together never read
 * half of one.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { constants, Script } from "node:vm"
import { crc32 } from "node:zlib"

/** How long after loading the bundle its cache is made: the server is listening by then. */
const cacheAfterMs = 2_000

const dist = import.meta.dirname
const bundle = join(dist, "server.cjs")
let bytes: Buffer | undefined = readFileSync(bundle)
const off = process.env["NODE_DISABLE_COMPILE_CACHE"] === "1"
const cacheDir = process.env["NODE_COMPILE_CACHE"] || join(dist, ".compile-cache")
/**
 * Named by the bundle's checksum: V8 checks a cache against the length of its source only, so a rebuild of the
 * same length must not find the cache of the build before it.
 */
const cachePrefix = `server-${process.version}-${process.arch}-`
// Of the file's bytes: ~4 ms, where the same checksum of the decoded text took ~28 ms of every start.
const cacheFile = join(cacheDir, `${cachePrefix}${crc32(bytes).toString(16).padStart(8, "0")}.v8`)

const readCache = (): Buffer | undefined => {
  if (off) return undefined
  try {
    return readFileSync(cacheFile)
  } catch {
    return undefined
  }
}

let cached = readCache()
// The bundle in the function CommonJS wraps a module in, on its first line so that its lines keep their numbers.
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${bytes.toString("utf8")}\n})`, {
  filename: bundle,
  ...(cached === undefined ? {} : { cachedData: cached }),
  // An `import()` the bundle makes of a package left outside it goes to Node's own loader, as from a module.
  importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER
})

const makeCache = !off && (cached === undefined || script.cachedDataRejected === true)
// The file's 7 MB and the cache's 4 MB are not kept for the process's life (the script holds its own source).
bytes = undefined
cached = undefined
if (makeCache) {
  setTimeout(() => {
    const written = `${cacheFile}.${process.pid}`
    try {
      mkdirSync(cacheDir, { recursive: true })
      writeFileSync(written, script.createCachedData())
      renameSync(written, cacheFile)
      // The caches of earlier builds go: no start will read them again.
      for (const name of readdirSync(cacheDir)) {
        if (name.startsWith(cachePrefix) && name.endsWith(".v8") && join(cacheDir, name) !== cacheFile) {
          rmSync(join(cacheDir, name), { force: true })
        }
      }
    } catch {
      // No cache this time: the next start compiles the bundle, as this one did.
      try {
        rmSync(written, { force: true })
      } catch {
        // A stray file, never read.
      }
    }
  }, cacheAfterMs).unref()
}

const module = { exports: {} }
const run = script.runInThisContext() as (
  exports: object,
  require: NodeJS.Require,
  module: { exports: object },
  filename: string,
  dirname: string
) => void
run(module.exports, createRequire(bundle), module, bundle, dist)
