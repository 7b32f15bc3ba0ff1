// Runs `npm run bench -- NAMES --quick --out DIR` as a child process for the
// smoke tests, and reads back what it wrote.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "../support/binring-process.js";

export interface QuickRun {
  code: number | null;
  stderr: string;
  read(file: string): string;
  /** Table rows (not headers or separators) of a markdown file. */
  rows(file: string): string[];
}

/**
 * How long a quick run may take before it counts as hung. Alone, the slowest
 * (rebalance) takes under a minute; beside the rest of the suite on two slow
 * cores it took 103 s, so the bound is well above that.
 */
const QUICK_RUN_BUDGET_MS = 240_000;

/** A smoke test's own timeout: the run's budget, and reading what it wrote. */
export const QUICK_TEST_TIMEOUT_MS = QUICK_RUN_BUDGET_MS + 10_000;

export function runQuick(names: string[]): Promise<QuickRun> {
  const out = mkdtempSync(join(tmpdir(), "binring-bench-"));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--expose-gc", `${REPO_ROOT}test/dist/bench/main.js`, ...names, "--quick", "--out", out],
      { timeout: QUICK_RUN_BUDGET_MS, maxBuffer: 64 * 2 ** 20 },
      (error, _stdout, stderr) => {
        const read = (file: string) => readFileSync(join(out, file), "utf8");
        resolve({
          code: error ? (typeof error.code === "number" ? error.code : null) : 0,
          stderr,
          read,
          rows: (file) =>
            read(file)
              .split("\n")
              .filter((line) => line.startsWith("| ") && !line.startsWith("| ---"))
              .slice(1),
        });
      },
    );
  });
}
