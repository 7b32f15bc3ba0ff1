// The durability benchmark keeps working: `--quick` end to end, two real
// clusters (appendfsync everysec and always, each checked with CONFIG GET
// before it is measured), every cell filled and the ratios computed.
import { expect, test } from "vitest";
import { QUICK_TEST_TIMEOUT_MS, runQuick } from "./quick-run.js";

test("npm run bench -- durability --quick writes filled tables", {
  timeout: QUICK_TEST_TIMEOUT_MS,
}, async () => {
  const run = await runQuick(["durability"]);
  expect(run.code, run.stderr).toBe(0);
  const report = run.read("durability.md");
  expect(report).toMatch(/^Machine: \d+ cores × .*redis-server/m);
  expect(report).not.toMatch(/NaN|undefined|Infinity/);
  expect(report).toMatch(
    /The Redis files are on \S+ \(\S+\), where writing 4 KiB and\s+fsyncing it takes [\d.]+ ms/,
  );
  const ratio = "×\\d+\\.\\d+";
  const ops = "\\d[\\d,]*";
  for (const [workload, concurrency] of [
    ["set", 1],
    ["set", 64],
    ["get", 64],
  ] as const) {
    expect(report).toMatch(
      new RegExp(
        `^\\| ${workload} \\| ${concurrency} \\| ${ops} \\| ${ops} \\| ${ratio} \\| ${ratio} \\| ${ratio} \\|$`,
        "m",
      ),
    );
    for (const mode of ["everysec", "always"]) {
      expect(report).toMatch(
        new RegExp(
          `^\\| ${workload} \\| ${concurrency} \\| ${mode} \\| ${ops}( \\| [\\d.]+){3} \\| 0 \\|$`,
          "m",
        ),
      );
    }
  }
  expect(run.read("README.md")).toContain(
    "[Durability: appendfsync always vs everysec](durability.md) — `npm run bench -- durability`",
  );
});
