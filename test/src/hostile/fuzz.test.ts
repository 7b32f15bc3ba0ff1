// The fuzzer (packages/chaos/src/fuzzer.ts) sends random and boundary values
// to every data call of every backend — uint64 extremes in clocks, stamps and
// epochs, empty and oversized strings, reserved bins, unknown oneofs, wrong
// wire types — on the Pipe stream and the unary calls, while the chaos
// workload runs beside it; then the checkers read the workload's history:
// nothing lost, nothing out of order, clocks never backwards.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { CLI_MAIN, keeperStatus, LocalCluster } from "../support/index.js";

let cluster: LocalCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

it("a workload beside the fuzzer sees nothing lost or out of order, and every backend stays up", async () => {
  cluster = await LocalCluster.start({ backends: 4, keepers: 1, keeperArgs: [] });
  const out = mkdtempSync(join(tmpdir(), "binring-fuzz-"));
  const child = spawn(
    process.execPath,
    [
      CLI_MAIN,
      "chaos",
      "--config",
      cluster.configPath,
      "--duration",
      "10s",
      "--clients",
      "6",
      "--fuzz",
      "--seed",
      "7",
      "--out",
      out,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stdout.resume();
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  expect(code, stderr).toBe(0);
  const fuzz = /fuzz (\d+) calls \(answered (\d+), refused (\d+), internal (\d+)/.exec(stderr);
  expect(fuzz, stderr).not.toBeNull();
  console.log(`fuzz: ${fuzz![0]}); ${/\d+ operations \(ok \d+, fail \d+, unknown \d+\)/.exec(stderr)?.[0]}`);
  expect(Number(fuzz![1])).toBeGreaterThan(50);
  expect(Number(fuzz![3])).toBeGreaterThan(0);
  // Every refusal is the caller's fault (INVALID_ARGUMENT and the like), never UNKNOWN or INTERNAL.
  expect(Number(fuzz![4])).toBe(0);
  expect(readFileSync(join(out, "summary.md"), "utf8")).toMatch(/^# binring verification: PASS/);
  // No backend crashed, and the keeper still sees every one ready.
  for (const member of cluster.members) expect(member.backend?.child.running, member.address).toBe(true);
  const status = await keeperStatus(cluster.keeperHttp[0]!);
  expect(status.backends.map((backend) => backend.state)).toEqual(cluster.addresses.map(() => "ready"));
}, 150_000);
