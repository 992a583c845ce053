import { globSync, readFileSync } from "node:fs"
import { defineConfig } from "vitest/config"

const include = ["packages/*/test/**/*.test.ts", "apps/*/test/**/*.test.ts", "test/**/*.test.ts"]
/**
 * The files that replace a module (`vi.mock`, `vi.doMock`): each runs in a process of its own, so that the modules
 * importing that one see the replacement, and the files after it the real one.
 */
const isolated = globSync(include).filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(file, "utf8")))

export default defineConfig({
  test: {
    globalSetup: ["./vitest.global-setup.ts"],
    // Three files at a time on 2 cores: the long end-to-end files partly wait on timers, child processes and
    // PostgreSQL (faults, fuzz, the reports' budgets); one at a time (vitest's default for 2 cores) took twice as long.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include,
          exclude: isolated,
          // A worker runs file after file in one process, with the modules it has already loaded (Effect's above
          // all), rather than a new process for every file importing them again: 448 s against 541 s, the test
          // processes' CPU 574 s against 746 s, on this machine (docs/testing.md). The modules' state is shared by the
          // files a worker runs: each file keeps its own (its gateway, database and doubles) in its own module.
          isolate: false
        }
      },
      // (Only when there is one: a project with nothing to include would take vitest's default, every file.)
      ...(isolated.length === 0 ? [] : [{ extends: true, test: { name: "isolated", include: isolated, isolate: true } }])
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
