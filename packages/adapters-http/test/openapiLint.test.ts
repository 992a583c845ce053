import { OpenApi } from "effect/http-api"
import { execFile } from "node:child_process"
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"
import { Api } from "@gateway/client/api/Api"

/**
 * `/openapi.json` linted by a tool we did not write: Redocly CLI with its
 * `recommended` rules (`redocly.yaml` at the repository root; no rule is
 * turned off and no node excepted). The document is generated from the HttpApi
 * definition, as the server generates the one it serves, and linted offline:
 * telemetry and update checks off.
 */
const root = join(import.meta.dirname, "..", "..", "..")
const cli = join(root, "node_modules", "@redocly", "cli", "bin", "cli.js")
const dir = mkdtempSync(join(tmpdir(), "gateway-openapi-lint-"))

afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Redocly's `--format json` report (problems an ignore file excepts would only be counted, as `ignored`). */
interface Report {
  readonly totals: { readonly errors: number; readonly warnings: number; readonly ignored: number }
  readonly problems: ReadonlyArray<{
    readonly ruleId: string
    readonly severity: string
    readonly message: string
    readonly location: ReadonlyArray<{ readonly pointer?: string }>
  }>
}

describe("the OpenAPI document, linted by Redocly CLI (recommended rules)", () => {
  it("has no errors and no warnings", async () => {
    writeFileSync(join(dir, "openapi.json"), JSON.stringify(OpenApi.fromApi(Api), null, 2))
    // The config next to the document, as at the root of a clone.
    copyFileSync(join(root, "redocly.yaml"), join(dir, "redocly.yaml"))
    const run = await promisify(execFile)(
      process.execPath,
      [cli, "lint", "openapi.json", "--config", "redocly.yaml", "--format", "json", "--max-problems", "10000"],
      {
        cwd: dir,
        env: { PATH: process.env["PATH"] ?? "", HOME: dir, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", CI: "true" },
        maxBuffer: 64 * 1024 * 1024
      }
    ).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? "", stderr: error.stderr ?? "" }))
    let report: Report
    try {
      report = JSON.parse(run.stdout) as Report
    } catch {
      throw new Error(`redocly did not answer a report:\n${run.stdout}\n${run.stderr}`)
    }
    const text = report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? "?"}`)
    expect(text.join("\n"), `${report.totals.errors} errors, ${report.totals.warnings} warnings`).toBe("")
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0, ignored: 0 })
  })
})
