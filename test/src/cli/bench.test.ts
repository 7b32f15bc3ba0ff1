// `binring bench` against a running cluster: every cell it reports was
// measured through the SDK, and its writes land in the bins it names.
import { BinClient } from "@binring/client";
import { VALUE } from "@binring/load";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalCluster, runCli } from "../support/index.js";

let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await LocalCluster.start({ backends: 3 });
});
afterAll(async () => {
  await cluster.stop();
});

const bench = (...args: string[]) => runCli(["bench", "--config", cluster.configPath, ...args]);

interface BenchJson {
  backends: number;
  results: { workload: string; concurrency: number; opsPerSecond: number; p99Ms: number; errors: number }[];
}

describe("binring bench", () => {
  it("measures each workload at each concurrency, through the cluster's bins", async () => {
    const result = await bench(
      "--workloads",
      "set,get,list-append",
      "--concurrency",
      "1,8",
      "--duration",
      "300ms",
      "--warmup",
      "100ms",
      "--bin-prefix",
      "bench-test/",
      "--json",
    );
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as BenchJson;
    expect(report.backends).toBe(3);
    expect(report.results.map((cell) => [cell.workload, cell.concurrency])).toEqual([
      ["set", 1],
      ["set", 8],
      ["get", 1],
      ["get", 8],
      ["list-append", 1],
      ["list-append", 8],
    ]);
    for (const cell of report.results) {
      expect(cell.opsPerSecond).toBeGreaterThan(0);
      expect(cell.p99Ms).toBeGreaterThan(0);
      expect(cell.errors).toBe(0);
    }
    // Progress: one line per cell on stderr, after the opening line.
    expect(result.stderr.trim().split("\n")).toHaveLength(7);

    const client = new BinClient({ backends: cluster.addresses });
    try {
      const bin = client.bin("bench-test/bin0");
      expect(await bin.get("k")).toBe(VALUE);
      expect((await bin.listGet("l")).length).toBeGreaterThan(0);
      expect(await client.bin("bin0").get("k")).toBeNull();
    } finally {
      await client.close();
    }
  });

  it("prints a table by default", async () => {
    const result = await bench(
      "--workloads",
      "get",
      "--concurrency",
      "2",
      "--duration",
      "200ms",
      "--warmup",
      "1ms",
    );
    expect(result.code, result.stderr).toBe(0);
    const [header, row, ...rest] = result.stdout.trim().split("\n");
    expect(header).toMatch(/^WORKLOAD\s+CONCURRENCY\s+OPS\/S\s+P50 MS\s+P99 MS\s+P99.9 MS\s+ERRORS$/);
    expect(row).toMatch(/^get\s+2\s+[\d,]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+0$/);
    expect(rest).toEqual([]);
  });

  it.each([
    [["--workloads", "set,frobnicate"], /--workloads: unknown workload "frobnicate"; choose from set, get/],
    [["--workloads", "set,,get"], /--workloads must be a comma-separated list, got "set,,get"/],
    [["--concurrency", "0"], /--concurrency must be a positive integer, got "0"/],
    [["--concurrency", "100000"], /--concurrency must be at most 4096, got "100000"/],
    [["--duration", "soon"], /--duration must be a duration like 500ms, 60s or 10m, got "soon"/],
    [["extra"], /unexpected argument "extra"/],
  ])("binring bench %j exits non-zero with one line", async (args, message) => {
    const result = await bench(...(args as string[]));
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it("says so in one line when the cluster cannot take writes", async () => {
    const { writeFileSync } = await import("node:fs");
    const path = `${cluster.configPath}.unreachable.json`;
    writeFileSync(path, JSON.stringify({ backends: ["127.0.0.1:1"], callTimeoutMs: 500 }));
    const result = await runCli(["bench", "--config", path, "--duration", "100ms"]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n").at(-1)).toMatch(/^binring bench: cannot write to the cluster: /);
  });
});
