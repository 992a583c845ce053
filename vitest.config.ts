import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    globalSetup: ["./vitest.global-setup.ts"],
    include: ["packages/*/test/**/*.test.ts", "apps/*/test/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    // Two files at a time on 2 cores: the long end-to-end files mostly wait on timers, child processes and
    // PostgreSQL. Vitest's default (cores − 1 = one file at a time) made `npm test` take ~300 s.
    maxWorkers: 2,
    hookTimeout: 120_000
  }
})
