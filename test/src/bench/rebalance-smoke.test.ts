// The rebalance benchmark keeps working: `--quick` end to end, a backend added
// to a loaded cluster and one removed, under a closed-loop and then a paced
// foreground load, every cell filled (the cluster's and the machine's CPU
// during each change too), the medians of the runs first, the paced load second by second, and
// the paced load beside plain CPU load of the add's cores over 2 and 8 processes.
import { expect, test } from "vitest";
import { QUICK_TEST_TIMEOUT_MS, runQuick } from "./quick-run.js";

test("npm run bench -- rebalance --quick writes a filled table", {
  timeout: QUICK_TEST_TIMEOUT_MS,
}, async () => {
  const run = await runQuick(["rebalance"]);
  expect(run.code, run.stderr).toBe(0);
  const report = run.read("rebalance.md");
  expect(report).toMatch(/^Machine: \d+ cores × .*redis-server/m);
  expect(report).not.toMatch(/NaN|undefined|Infinity/);
  // The medians (one run each with --quick), then every run under its own header.
  const [medians, rows] = [run.rows("rebalance.md").slice(0, 4), run.rows("rebalance.md").slice(5, 9)];
  expect(medians).toHaveLength(4);
  for (const [i, line] of medians.entries()) {
    const change = i % 2 === 0 ? "add 1 to 6" : "remove 1 of 7";
    const foreground = i < 2 ? "closed loop, 16 callers" : "paced, [\\d,]+ ops/s";
    expect(line).toMatch(
      new RegExp(`^\\| ${change} \\| ${foreground} \\| [\\d,]+ \\| ×[\\d.]+ \\| ×[\\d.]+ \\|$`),
    );
  }
  expect(rows).toHaveLength(4);
  for (const [i, foreground] of [
    "closed loop, 16 callers",
    "closed loop, 16 callers",
    "paced, [\\d,]+ ops/s",
    "paced, [\\d,]+ ops/s",
  ].entries()) {
    const change = i % 2 === 0 ? "add 1 to 6" : "remove 1 of 7";
    expect(rows[i]).toMatch(
      new RegExp(
        `^\\| ${change} \\| ${foreground} \\| [\\d,]+ \\| [\\d,]+ \\(.*\\) \\| [\\d,]+ \\| [\\d,]+ \\| [\\d.]+ \\| ×[\\d.]+ \\| 0 \\| \\d+\\.\\d\\d \\(\\d+\\.\\d\\d\\) \\| \\d+\\.\\d\\d \\(\\d+\\.\\d\\d\\) \\| [\\d,]+ \\|$`,
      ),
    );
  }
  // Second by second: idle, the add, the remove; each second its calls, their p99 and every part's cores.
  const timeline = report.slice(report.indexOf("### The paced load second by second"));
  expect(timeline).toContain(
    "| seconds | calls due | p99 (ms) | moving backend (cores) | other backends (cores) |",
  );
  const seconds = timeline.split("\n").filter((line) => /^\| \d+–\d+ \|/.test(line));
  expect(seconds.length).toBeGreaterThanOrEqual(3);
  for (const line of seconds)
    expect(line).toMatch(/^\| \d+–\d+ \| \d+ \| ([\d.]+|–)( \| (\d+\.\d\d|–))+ \|$/);
  // Plain CPU load of the paced add's extra cores beside the paced foreground, over 2 and over 8 processes.
  const alone = report.slice(report.indexOf("### The move's CPU alone"));
  expect(alone).toMatch(
    /Median of the plain loads: over 2 processes \*\*×[\d.]+\*\* of idle, over 8 processes \*\*×[\d.]+\*\* of idle; the paced adds \*\*×[\d.]+\*\*/,
  );
  const burns = alone.split("\n").filter((line) => /^\| [\d.]+ cores \|/.test(line));
  expect(burns.map((line) => line.split(" | ")[1])).toEqual(["2", "8"]);
  for (const line of burns)
    expect(line).toMatch(
      /^\| [\d.]+ cores \| [28] \| \d+\.\d\d \| \d+\.\d\d \(\d+\.\d\d\) \| \d+\.\d\d \(\d+\.\d\d\) \| [\d.]+ \| [\d.]+ \| (×[\d.]+|–) \| 0 \|$/,
    );
});
