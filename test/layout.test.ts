import { assert, describe, it } from "@effect/vitest"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"

/**
 * The house rules of the layout (STYLE.md): arrows point inward, no adapter
 * imports another adapter (what two adapters share is a port in the
 * domain), and no code reaches into another package by relative path.
 * `@gateway/client` is the HTTP contract (the HttpApi) and its typed client:
 * it imports only the domain, and adapters may import it as they import the
 * domain (adapters-http serves that contract).
 */
const root = resolve(import.meta.dirname, "..")
const adapters = ["adapters-http", "adapters-operator", "adapters-pg"]
const inward = ["domain", "client"]
const packages = ["domain", "client", ...adapters, "play"].map((name) => ({ name, dir: join(root, "packages", name) }))
const apps = readdirSync(join(root, "apps")).map((name) => ({ name, dir: join(root, "apps", name) }))

const files = (dir: string): Array<string> =>
  !existsSync(dir) ? [] : readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []
  )

const imports = (file: string): Array<string> =>
  [...readFileSync(file, "utf8").matchAll(/\bfrom\s+"([^"]+)"|\bimport\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g)]
    .map((m) => m[1] ?? m[2] ?? m[3] ?? "")

const ourPackage = (specifier: string): string | undefined => /^@gateway\/([^/]+)/.exec(specifier)?.[1]

const inside = (dir: string, file: string) => !relative(dir, file).startsWith("..")

const where = (file: string) => relative(root, file).split(sep).join("/")

describe("layout", () => {
  it("no package's source imports an adapter package: adapters import only the domain and the client contract", () => {
    const offences: Array<string> = []
    for (const pkg of packages) {
      for (const file of [...files(join(pkg.dir, "src")), ...files(join(pkg.dir, "testing"))]) {
        for (const specifier of imports(file)) {
          const target = ourPackage(specifier)
          if (target !== undefined && !inward.includes(target) && target !== pkg.name) {
            offences.push(`${where(file)} imports ${specifier}`)
          }
        }
      }
    }
    assert.deepStrictEqual(offences, [])
  })

  it("no package.json of a package depends on an adapter package", () => {
    for (const pkg of packages) {
      const manifest: { dependencies?: Record<string, string> } = JSON.parse(readFileSync(join(pkg.dir, "package.json"), "utf8"))
      const ours = Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith("@gateway/"))
      assert.deepStrictEqual(ours.filter((name) => !inward.includes(name.slice("@gateway/".length))), [], pkg.name)
    }
  })

  it("no file reaches into another package (or bench, or the root) by relative path", () => {
    const offences: Array<string> = []
    const owners = [...packages, ...apps, { name: "bench", dir: join(root, "bench") }, { name: "test", dir: join(root, "test") }]
    for (const owner of owners) {
      for (const file of files(owner.dir)) {
        for (const specifier of imports(file)) {
          if (!specifier.startsWith(".")) continue
          const target = resolve(dirname(file), specifier)
          if (!inside(owner.dir, target)) offences.push(`${where(file)} imports ${specifier}`)
        }
      }
    }
    assert.deepStrictEqual(offences, [])
  })

  it("the domain and its doubles import nothing but effect and their own files", () => {
    const domain = join(root, "packages", "domain")
    for (const file of [...files(join(domain, "src")), ...files(join(domain, "testing"))]) {
      for (const specifier of imports(file)) {
        assert.isTrue(specifier === "effect" || specifier.startsWith("."), `${where(file)} imports ${specifier}`)
      }
    }
  })

  it("the client imports nothing but effect, the domain and its own files (no server code, no Node API)", () => {
    const client = join(root, "packages", "client")
    for (const file of files(join(client, "src"))) {
      // a description's "… from " + "…" is prose, not a specifier
      for (const specifier of imports(file).filter((s) => !/\s/.test(s))) {
        assert.isTrue(
          /^effect(\/http|\/http-api)?$/.test(specifier) || /^@gateway\/domain(\/|$)/.test(specifier) || specifier.startsWith("."),
          `${where(file)} imports ${specifier}`
        )
      }
    }
    const manifest: { dependencies?: Record<string, string> } = JSON.parse(readFileSync(join(client, "package.json"), "utf8"))
    assert.deepStrictEqual(Object.keys(manifest.dependencies ?? {}).sort(), ["@gateway/domain", "effect"])
  })

  it("every port is in the domain: no Context.Service is declared in an adapter's source but its own adapter-internal ones", () => {
    const internal = new Map([
      ["adapters-http", ["AdminTokens", "RateLimiter", "GamePages", "CurrentAdmin", "CurrentMerchant", "CurrentKeyPrefix", "SessionToken", "BackofficeOptions"]],
      ["adapters-operator", ["OperatorHttp", "SignedPost", "MerchantSigningKeys", "OperatorCircuit"]],
      ["adapters-pg", ["DataCipher", "ChangeFeed", "ReportsDatabase", "OutboxHandoff"]]
    ])
    for (const name of adapters) {
      for (const file of files(join(root, "packages", name, "src"))) {
        for (const [, service] of readFileSync(file, "utf8").matchAll(/class (\w+) extends Context\.Service</g)) {
          assert.include(internal.get(name) ?? [], service ?? "", `${where(file)} declares ${service}: a port belongs in the domain`)
        }
      }
    }
  })
})
