import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { get } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "../testing/Gateway.ts"

/**
 * Stoplight Prism (`@stoplight/prism-cli`) as a validating proxy in front of
 * a gateway: `prism proxy <document> <gateway> [--errors]`. It forwards each
 * request and validates the request and the answer against the document,
 * offline (the document is a local file). What it finds:
 *
 * - every violation, warnings included (an error status the operation does
 *   not document), is listed in the `sl-violations` header of the answer,
 *   each located in the `request` or the `response`;
 * - with `--errors`, an invalid request is not forwarded: Prism answers 422
 *   (401 for a missing credential, 404 for an unknown route) itself, its
 *   violations in the body; and an answer with an error violation (body or
 *   header outside its schema, content type not documented, undocumented
 *   2xx) is replaced by Prism's 500 problem (`type` …`#VIOLATIONS`, the
 *   violations in `validation`);
 * - without it, everything is forwarded and the answer is the upstream's.
 */
export interface PrismProxy {
  readonly url: string
  readonly output: () => string
  readonly stop: () => Promise<void>
}

const cli = join(import.meta.dirname, "..", "..", "..", "node_modules", "@stoplight", "prism-cli", "dist", "index.js")

/**
 * The status of `GET url` on a connection of its own, closed after it: a probe must leave no idle
 * connection in fetch's pool that Prism's server could close under the next request ("other side closed").
 */
const probe = (url: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const request = get(url, { agent: false, headers: { connection: "close" } }, (res) => {
      res.resume()
      res.on("end", () => resolve(res.statusCode ?? 0))
    })
    request.on("error", reject)
  })

/** Starts Prism on a free port in front of `upstream`, validating against `document`; resolves once it forwards. */
export const startPrism = async (document: unknown, upstream: string, options: { readonly errors: boolean }): Promise<PrismProxy> => {
  const dir = mkdtempSync(join(tmpdir(), "gateway-prism-"))
  const file = join(dir, "openapi.json")
  writeFileSync(file, JSON.stringify(document))
  const port = await freePort()
  const child: ChildProcess = spawn(
    process.execPath,
    // Node's default 16 KiB would have Prism answer 431 to heads the gateway takes (up to 32 KiB).
    ["--max-http-header-size=65536", cli, "proxy", file, upstream, `--errors=${options.errors}`, "--host", "127.0.0.1", "--port", String(port), "--verboseLevel", "error"],
    { env: { PATH: process.env["PATH"] ?? "", HOME: dir, SCARF_ANALYTICS: "false", NODE_ENV: "test" }, stdio: ["ignore", "pipe", "pipe"] }
  )
  let output = ""
  child.stdout?.on("data", (d: Buffer) => output = (output + d.toString()).slice(-20_000))
  child.stderr?.on("data", (d: Buffer) => output = (output + d.toString()).slice(-20_000))
  const stop = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        rmSync(dir, { recursive: true, force: true })
        resolve()
      }
      if (child.exitCode !== null || child.signalCode !== null) return done()
      child.once("exit", done)
      child.kill("SIGKILL")
    })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}: ${output}`)
    try {
      if (await probe(`${url}/health`) === 200) return { url, output: () => output, stop }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  await stop()
  throw new Error(`prism did not start: ${output}`)
}

/** One violation as Prism reports it. */
interface Violation {
  readonly location?: ReadonlyArray<string>
  readonly severity?: string
  readonly message?: string
}

const describe = (v: Violation) => `${v.severity ?? "?"} ${(v.location ?? []).join(".")}: ${v.message ?? ""}`

/**
 * What Prism found in one exchange: the violations of its `sl-violations`
 * header (only those of the `response` when `responseOnly`: a request sent
 * invalid on purpose) and, when the answer is Prism's own problem (the
 * request refused, or the gateway's answer replaced), that problem, which
 * `ownAnswer` says. Empty when it found nothing.
 */
export const findingsOf = (
  headers: Headers,
  text: string,
  responseOnly: boolean
): { readonly violations: ReadonlyArray<string>; readonly ownAnswer: boolean } => {
  const found: Array<Violation> = []
  const header = headers.get("sl-violations")
  if (header !== null) {
    try {
      const list: unknown = JSON.parse(header)
      for (const v of Array.isArray(list) ? list : [list]) found.push(v as Violation)
    } catch {
      found.push({ severity: "?", message: header.slice(0, 2000) })
    }
  }
  const violations = found.filter((v) => !responseOnly || v.location?.[0] === "response").map(describe)
  let ownAnswer = false
  if ((headers.get("content-type") ?? "").startsWith("application/problem+json")) {
    try {
      const body = JSON.parse(text) as { type?: unknown; title?: unknown; detail?: unknown; validation?: unknown }
      if (typeof body.type === "string" && body.type.startsWith("https://stoplight.io/prism/errors#")) {
        ownAnswer = true
        const listed = Array.isArray(body.validation) ? body.validation.map((v) => describe(v as Violation)) : []
        const extra = listed.filter((v) => !violations.includes(v))
        violations.push(...(extra.length > 0 ? extra : [`${body.type}: ${String(body.title)}: ${String(body.detail)}`]))
      }
    } catch {
      // the gateway's own problem+json
    }
  }
  return { violations, ownAnswer }
}
