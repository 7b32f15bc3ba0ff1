// What `binring chaos` prints besides its JSON log lines: the run's summary and each checker's verdict;
// and a run in the background, for tests that change the cluster under it.
import { expect } from "vitest";
import { type CliRun, startCli } from "./binring-process.js";

export function chaosVerdicts(stdout: string): string {
  return stdout
    .split("\n")
    .filter((line) => !line.startsWith("{"))
    .join("\n");
}

/** Asserts that a finished `binring chaos` run exited 0 with the lost-writes, linearizability and lists checkers passing. */
export function expectChaosPassed(run: CliRun): void {
  const verdicts = chaosVerdicts(run.stdout);
  expect(run.code, `binring chaos failed:\n${verdicts}\n${run.stderr}`).toBe(0);
  expect(verdicts).toMatch(/lost-writes: PASS/);
  expect(verdicts).toMatch(/linearizability: PASS/);
  expect(verdicts).toMatch(/lists: PASS/);
}

/**
 * `binring chaos ARGS` attached to a cluster a test changes under it; `ended` says whether it already
 * finished, `end` ends its workload now (SIGINT), after which it checks what it recorded.
 */
export function chaosInBackground(
  args: string[],
  timeoutMs: number,
): { finished: Promise<CliRun>; ended: () => boolean; end: () => void } {
  let ended = false;
  const { child, finished } = startCli(["chaos", ...args], { timeoutMs });
  void finished.then(() => {
    ended = true;
  });
  return { finished, ended: () => ended, end: () => child.kill("SIGINT") };
}
