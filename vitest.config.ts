import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Run alone, after everything else: a 60 s chaos run or tens of megabytes beside other clusters on two cores stalls. */
const SERIAL = ["test/src/chaos/**/*.test.ts", "test/src/heavy/**/*.test.ts"];

/** Tells test support that a test failed, so a stopping cluster prints its logs' last lines. */
const FAILED_TESTS = "test/src/support/failed-tests-setup.ts";

/** The benchmarks' smoke tests: each runs a benchmark end to end, a minute or more on two cores. */
const BENCH_SMOKES = /\/test\/src\/bench\/[^/]+-smoke\.test\.ts$/;

/**
 * Vitest's order (longest first by its cache of durations; without one, as on
 * a fresh clone, largest file first), with the bench smokes first among their
 * project's: their files are small, and started last they kept one core busy
 * alone for a minute at the end of the parallel phase.
 */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const slow = (file: TestSpecification) => BENCH_SMOKES.test(file.moduleId);
    return [...sorted.filter(slow), ...sorted.filter((file) => !slow(file))];
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: SlowestFirst },
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
