// Whether a test of the running file has failed, for support code that would
// otherwise throw away what explains it: a test cluster's directory, process
// logs included, goes when the cluster stops, and a failure that happens once
// in CI is then a name and a timeout. failed-tests-setup.ts reports failures
// here for every integration test file (vitest.config.ts setupFiles); this
// module does not import vitest, since the benchmarks use the same support.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

let failed = false;

export function noteTestFailed(): void {
  failed = true;
}

export function anyTestFailed(): boolean {
  return failed;
}

/** Lines of each process's log printed after a failure: enough to see its last state changes. */
const TAIL_LINES = 40;

/** Prints the last lines of every log under `dir`/logs to stderr, each under its file's name. */
export function printLogTails(dir: string): void {
  const logs = join(dir, "logs");
  if (!existsSync(logs)) return;
  for (const name of readdirSync(logs).sort()) {
    const lines = readFileSync(join(logs, name), "utf8").trimEnd().split("\n");
    console.error(`--- ${name}: last ${Math.min(TAIL_LINES, lines.length)} of ${lines.length} lines ---`);
    console.error(lines.slice(-TAIL_LINES).join("\n"));
  }
}
