import { Effect, Exit, Redacted, Scope } from "effect"
import { startThrowAwayServer } from "@gateway/adapters-pg/testing"
import { execFileSync } from "node:child_process"

/**
 * Rebuilds the server bundle the end-to-end tests run (as `npm start` runs
 * it), so they never test a stale one. Without DATABASE_URL, starts one
 * embedded PostgreSQL in a temporary
 * directory for the whole test run and hands its URL to the test workers;
 * each test file then creates and drops its own database on it.
 */
export default async function setup(): Promise<() => Promise<void>> {
  execFileSync(process.execPath, ["apps/server/build.ts"], { stdio: "inherit" })
  if (process.env["DATABASE_URL"] !== undefined && process.env["DATABASE_URL"] !== "") return async () => {}
  const scope = await Effect.runPromise(Scope.make())
  const server = await Effect.runPromise(Scope.provide(scope)(startThrowAwayServer))
  process.env["DATABASE_URL"] = Redacted.value(server.url)
  return async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    delete process.env["DATABASE_URL"]
  }
}
