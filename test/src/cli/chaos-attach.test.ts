// `binring chaos --config` on a cluster it does not own: it injects nothing,
// runs the workload while the operator breaks things (here: a backend killed
// with its Redis and brought back empty), waits until the keeper reports every
// backend ready again, reads the final state, and the checkers pass. Ctrl-C
// ends its workload early: it checks what it recorded rather than aborting.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { CLI_MAIN, LocalCluster } from "../support/index.js";

let cluster: LocalCluster | undefined;
let chaos: ChildProcess | undefined;
afterAll(async () => {
  chaos?.kill("SIGKILL");
  await cluster?.stop();
});

it("checks a cluster it does not own while the operator kills and restarts a backend", async () => {
  // Default keeper timing, as an operator's cluster has: the tests' fast leases flap on a loaded machine.
  cluster = await LocalCluster.start({ backends: 4, keepers: 1, keeperArgs: [] });
  const out = mkdtempSync(join(tmpdir(), "binring-attach-"));
  const child = spawn(
    process.execPath,
    [CLI_MAIN, "chaos", "--config", cluster.configPath, "--duration", "10m", "--clients", "4", "--out", out],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  chaos = child;
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  await waitForOutput(() => stderr, /history in/);
  const victim = cluster.addresses[1]!;
  await cluster.kill(victim, { withRedis: true });
  await new Promise((resolve) => setTimeout(resolve, 3000));
  await cluster.restart(victim, { redis: "empty" });
  // Long before the 10 minutes are over.
  child.kill("SIGINT");

  const code = await exited;
  expect(code, `${stdout}\n${stderr}`).toBe(0);
  expect(stderr).toMatch(/injects no faults/);
  expect(stderr).toMatch(/SIGINT: ending the workload now and checking its history/);
  const history = readFileSync(join(out, "history.jsonl"), "utf8");
  expect(history).not.toMatch(/"type":"fault"/);
  expect(history).toMatch(/"type":"final"/);
  expect(readFileSync(join(out, "summary.md"), "utf8")).toMatch(/^# binring verification: PASS/);
}, 150_000);

async function waitForOutput(read: () => string, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(read())) {
    if (Date.now() > deadline)
      throw new Error(`no output matching ${pattern} within ${timeoutMs} ms:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
