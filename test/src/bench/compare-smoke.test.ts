// The comparison benchmarks keep working: `--quick` throughput and failover
// end to end against real binring processes, a real Redis Cluster and a
// redis-server, with filled tables and charts.
import { expect, test } from "vitest";
import { QUICK_TEST_TIMEOUT_MS, runQuick } from "./quick-run.js";

test("npm run bench -- throughput failover --quick writes tables and charts", {
  timeout: QUICK_TEST_TIMEOUT_MS,
}, async () => {
  const run = await runQuick(["throughput", "failover"]);
  expect(run.code, run.stderr).toBe(0);
  const throughput = run.rows("throughput.md");
  for (const system of ["binring", "Redis Cluster 3+3", "Redis Cluster 3+3, WAIT 1", "raw redis-server"]) {
    expect(
      throughput.some((row) => row.includes(`| ${system}`)),
      system,
    ).toBe(true);
  }
  expect(run.read("throughput.md")).not.toMatch(/NaN|undefined|Infinity/);
  expect(run.read("throughput.md")).toMatch(/\| mixed \| 2 \| 16 \| binring/);
  // CPU per operation: every process group of binring measured, and only the redis-servers and the client of Redis Cluster.
  const n = "[\\d,]+";
  expect(run.read("throughput.md")).toMatch(
    new RegExp(`\\| set \\| binring [^|]+ \\| ${n}( \\| ${n}){6} \\|`),
  );
  expect(run.read("throughput.md")).toMatch(
    new RegExp(
      `\\| get \\| Redis Cluster 3\\+3, WAIT 1 \\| ${n} \\| – \\| ${n} \\| – \\| ${n} \\| ${n} \\| ${n} \\|`,
    ),
  );
  const failover = run.rows("failover.md");
  expect(failover.find((row) => row.startsWith("| binring"))).toMatch(
    /\| – \(no takeover needed\) \| \d+ \|$/,
  );
  expect(failover.find((row) => row.startsWith("| Redis Cluster 3+3, cluster-node-timeout 1000 ms"))).toMatch(
    /\| \d+ \| \d+ \|$/,
  );
  for (const chart of ["throughput-set.svg", "throughput-mixed.svg", "failover-latency.svg"]) {
    expect(run.read(chart), chart).toMatch(/^<svg [\s\S]*<polyline [\s\S]*<\/svg>\n$/);
  }
  expect(run.read("failover-latency.svg")).toContain("SIGKILL");
  expect(run.read("README.md")).toContain("[Failover under load vs Redis Cluster](failover.md)");
});
