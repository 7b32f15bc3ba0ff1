// The benchmark itself keeps working: `--quick` runs every benchmark end to
// end (real binring processes, a real Redis Cluster and redis-server) and
// writes a results file with a filled table per benchmark, plus the charts.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { REPO_ROOT } from "../support/binring-process.js";

const out = mkdtempSync(join(tmpdir(), "binring-bench-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

test("npm run bench -- --quick runs every benchmark and writes tables and charts", {
  timeout: 150_000,
}, async () => {
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--expose-gc", `${REPO_ROOT}test/dist/bench/main.js`, "--quick", "--out", out],
      { timeout: 140_000, maxBuffer: 64 * 2 ** 20 },
      (error, _stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stderr }),
    );
  });
  expect(code, stderr).toBe(0);
  for (const name of ["throughput", "failover", "scale", "placement", "repair", "backend"]) {
    const markdown = readFileSync(join(out, `${name}.md`), "utf8");
    expect(markdown, name).toMatch(/^Machine: \d+ cores × .*redis-server/m);
    const rows = markdown.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| ---"));
    expect(rows.length, `${name} table rows`).toBeGreaterThan(1);
    expect(markdown, name).not.toMatch(/NaN|undefined|Infinity/);
  }
  const failover = readFileSync(join(out, "failover.md"), "utf8");
  expect(failover).toMatch(/\| binring .* \| 0 \| – \(no takeover needed\) \| \d+ \|/);
  expect(failover).toMatch(/\| Redis Cluster 3\+3, cluster-node-timeout 1000 ms/);
  for (const chart of ["throughput-set.svg", "throughput-mixed.svg", "failover-latency.svg"]) {
    expect(readFileSync(join(out, chart), "utf8"), chart).toMatch(/^<svg [\s\S]*<polyline [\s\S]*<\/svg>\n$/);
  }
  expect(readFileSync(join(out, "failover-latency.svg"), "utf8")).toContain("SIGKILL");
  expect(readFileSync(join(out, "README.md"), "utf8")).toContain(
    "[Failover under load vs Redis Cluster](failover.md)",
  );
});
