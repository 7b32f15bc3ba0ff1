// The rebalance benchmark keeps working: `--quick` end to end, a backend added
// to a loaded cluster and one removed under foreground load, every cell filled.
import { expect, test } from "vitest";
import { runQuick } from "./quick-run.js";

test("npm run bench -- rebalance --quick writes a filled table", { timeout: 120_000 }, async () => {
  const run = await runQuick(["rebalance"], 110_000);
  expect(run.code, run.stderr).toBe(0);
  const report = run.read("rebalance.md");
  expect(report).toMatch(/^Machine: \d+ cores × .*redis-server/m);
  expect(report).not.toMatch(/NaN|undefined|Infinity/);
  const [add, remove] = run.rows("rebalance.md");
  expect(add).toMatch(
    /^\| add 1 to 6 \| [\d,]+ \| [\d,]+ \(×\d\.\d+ of ideal [\d,]+\) \| [\d,]+ \| [\d,]+ \| [\d.]+ \| ×[\d.]+ \| 0 \|$/,
  );
  expect(remove).toMatch(
    /^\| remove 1 of 7 \| [\d,]+ \| .* \| [\d,]+ \| [\d,]+ \| [\d.]+ \| ×[\d.]+ \| 0 \|$/,
  );
});
