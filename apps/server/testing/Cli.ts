import { execFile } from "node:child_process"
import { join } from "node:path"
import { testPasswordHashCost } from "./Gateway.ts"

/** The ops CLI as the release's `bin/gateway` runs it: the bundle `npm ci` prepares (the test run rebuilds it first). */
const cli = join(import.meta.dirname, "..", "dist", "cli.mjs")

/** What one CLI invocation did. */
export interface Ran {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs the ops CLI with `args` and only `env` (and PATH) in its environment, as an operator's shell would; scrypt at
 * the tests' cost (testPasswordHashCost) unless `env` sets `PASSWORD_HASH_COST`.
 */
export const runCli = (args: ReadonlyArray<string>, env: Record<string, string>): Promise<Ran> =>
  new Promise((resolve) =>
    execFile(process.execPath, [cli, ...args], {
      env: { PATH: process.env["PATH"] ?? "", PASSWORD_HASH_COST: testPasswordHashCost, ...env },
      timeout: 60_000
    }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }))
  )
