// The scale benchmarks keep working: `--quick` scale, placement, repair and
// backend end to end, each writing a filled table.
import { expect, test } from "vitest";
import { QUICK_TEST_TIMEOUT_MS, runQuick } from "./quick-run.js";

test("npm run bench -- scale placement repair backend --quick writes filled tables", {
  timeout: QUICK_TEST_TIMEOUT_MS,
}, async () => {
  const run = await runQuick(["scale", "placement", "repair", "backend"]);
  expect(run.code, run.stderr).toBe(0);
  for (const name of ["scale", "placement", "repair", "backend"]) {
    expect(run.read(`${name}.md`), name).toMatch(/^Machine: \d+ cores × .*redis-server/m);
    expect(run.rows(`${name}.md`).length, name).toBeGreaterThan(0);
    expect(run.read(`${name}.md`), name).not.toMatch(/NaN|undefined|Infinity/);
  }
  expect(run.rows("placement.md").find((row) => row.startsWith("| 300 "))).toMatch(/\| \d[\d,]* KiB \|$/);
  // The fitted split of a backend's CPU: µs per message and per operation, for each
  // operation on each transport.
  for (const operation of ["get", "set", "clock, no Redis call"]) {
    for (const transport of ["gRPC", "link"]) {
      const row = `^\\| ${operation} \\(${transport}\\) \\| -?\\d+ \\| -?\\d+ \\|$`;
      expect(run.read("backend.md")).toMatch(new RegExp(row, "m"));
    }
  }
  expect(run.rows("repair.md")[0]).toMatch(/^\| 10,000 \| [\d,]+ \| \d+ \| \d+ \| \d+ \|/);
});
