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

export function runQuick(names: string[], timeoutMs: number): Promise<QuickRun> {
  const out = mkdtempSync(join(tmpdir(), "binring-bench-"));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--expose-gc", `${REPO_ROOT}test/dist/bench/main.js`, ...names, "--quick", "--out", out],
      { timeout: timeoutMs, maxBuffer: 64 * 2 ** 20 },
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
