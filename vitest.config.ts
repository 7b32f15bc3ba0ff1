import { defineConfig } from "vitest/config";

/** Run alone, after everything else: a 60 s chaos run or tens of megabytes beside other clusters on two cores stalls. */
const SERIAL = ["test/src/chaos/**/*.test.ts", "test/src/heavy/**/*.test.ts"];

/** Tells test support that a test failed, so a stopping cluster prints its logs' last lines. */
const FAILED_TESTS = "test/src/support/failed-tests-setup.ts";

export default defineConfig({
  test: {
    exclude: ["**/node_modules/**", "**/dist/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start real processes; two cores do not take more in parallel.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["packages/*/test/**/*.test.ts"],
          // Pure logic with fakes (no processes, no globals changed): the files share their
          // workers' module cache instead of each loading vitest and the packages afresh, which
          // took half of their 15 s.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/src/**/*.test.ts"],
          exclude: SERIAL,
          setupFiles: [FAILED_TESTS],
        },
      },
      {
        extends: true,
        test: {
          name: "serial",
          include: SERIAL,
          setupFiles: [FAILED_TESTS],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
