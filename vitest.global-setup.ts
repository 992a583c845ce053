import { Effect, Exit, Redacted, Scope } from "effect"
import { dropTemplate, makeTemplate, startThrowAwayServer, templateVariable } from "@gateway/adapters-pg/testing"
import { execFileSync } from "node:child_process"

/**
 * Rebuilds the server bundle the end-to-end tests run (as `npm start` runs
 * it), so they never test a stale one. Without DATABASE_URL, starts one
 * embedded PostgreSQL in a temporary
 * directory for the whole test run and hands its URL to the test workers;
 * each test file then creates and drops its own database on it. On that
 * server it migrates one template database for the run, which the tests
 * that are not about migrating copy rather than migrate their own
 * (`PgTest.scopedMigratedDatabaseUrl`); it is dropped at the end.
 */
export default async function setup(): Promise<() => Promise<void>> {
  execFileSync(process.execPath, ["apps/server/build.ts"], { stdio: "inherit" })
  const scope = await Effect.runPromise(Scope.make())
  const given = process.env["DATABASE_URL"]
  if (given === undefined || given === "") {
    const server = await Effect.runPromise(Scope.provide(scope)(startThrowAwayServer))
    process.env["DATABASE_URL"] = Redacted.value(server.url)
  }
  const url = Redacted.make(process.env["DATABASE_URL"] ?? "")
  const template = await Effect.runPromise(makeTemplate(url))
  process.env[templateVariable] = template
  return async () => {
    delete process.env[templateVariable]
    await Effect.runPromise(dropTemplate(url, template).pipe(Effect.ignore))
    await Effect.runPromise(Scope.close(scope, Exit.void))
    if (given === undefined || given === "") delete process.env["DATABASE_URL"]
  }
}
