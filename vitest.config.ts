import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    globalSetup: ["./vitest.global-setup.ts"],
    include: ["packages/*/test/**/*.test.ts", "apps/*/test/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    // Three files at a time on 2 cores: the long end-to-end files mostly wait on timers, child processes and
    // PostgreSQL (faults, fuzz, the reports' budgets). Two at a time made `npm test` take ~5.5 min here (324 s of
    // files), three ~4.6 min, with the same results; one (vitest's default for 2 cores) ~9 min.
    maxWorkers: 3,
    hookTimeout: 120_000
  }
})
