// The keeper ring changed while the cluster runs, on real processes, under the
// chaos workload recording a history (clients built from the original cluster
// file, never restarted): two keepers the file does not list join with
// `binring keeper --advertise --join`, one of the file's two is taken off
// with `binring admin remove-keeper --wait` and killed, and a backend is
// killed after that, so the reshaped keeper ring must declare it dead and
// repair it. Every checker must pass and every backend must have one owner
// among the keepers left.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ChildProcess,
  CLI_MAIN,
  chaosInBackground,
  expectChaosPassed,
  freePort,
  LocalCluster,
  MULTI_KEEPER_ARGS,
  runCli,
  waitForKeepersSettled,
} from "../support/index.js";

let cluster: LocalCluster | undefined;
const added: ChildProcess[] = [];
afterAll(async () => {
  for (const child of added) await child.kill("SIGKILL");
  await cluster?.stop();
});

describe("a running cluster's keeper ring grows and shrinks", () => {
  it("by two keepers the file does not list and one it does, under a recorded workload that passes every checker", async () => {
    cluster = await LocalCluster.start({ backends: 5, keepers: 2, keeperArgs: MULTI_KEEPER_ARGS });
    const c = cluster;
    const https = await Promise.all(
      c.keeperProcesses.map(async (child) => (await child!.waitForLine(/"http":"([^"]+)"/))[1]!),
    );
    const ready = Object.fromEntries(c.addresses.map((address) => [address, "ready"]));
    await waitForKeepersSettled(https, ready);

    const out = join(mkdtempSync(join(tmpdir(), "binring-keeper-ring-")), "chaos");
    const workload = chaosInBackground(
      ["--config", c.configPath, "--duration", "5m", "--clients", "8", "--seed", "11", "--out", out],
      150_000,
    );

    const addedHttps: string[] = [];
    for (let i = 0; i < 2; i++) {
      const address = `127.0.0.1:${await freePort()}`;
      const started = await ChildProcess.spawn(
        `keeper-added-${i}`,
        process.execPath,
        [
          CLI_MAIN,
          "keeper",
          "--config",
          c.configPath,
          "--advertise",
          address,
          "--join",
          ...MULTI_KEEPER_ARGS,
        ],
        { readyLine: /"http":"([^"]+)"/ },
      );
      added.push(started.child);
      addedHttps.push(started.match[1]!);
      await started.child.waitForLine(/joined the keeper ring/, 20_000);
    }
    await waitForKeepersSettled([...https, ...addedHttps], ready, 30_000);

    const removed = c.keepers[0]!;
    const remove = await runCli(
      ["admin", "remove-keeper", removed, "--config", c.configPath, "--wait", "--timeout", "60s"],
      { timeoutMs: 70_000 },
    );
    expect(remove.code, remove.stderr).toBe(0);
    await c.killKeeper(0);
    const left = [https[1]!, ...addedHttps];
    await waitForKeepersSettled(left, ready, 30_000);

    // A death and a return the reshaped ring must handle: declared dead and repaired onto the
    // others, then back on an empty store, emptied and filled again.
    const victim = c.addresses[4]!;
    await c.kill(victim, { withRedis: true });
    await waitForKeepersSettled(left, { ...ready, [victim]: "dead" }, 30_000);
    await c.restart(victim, { redis: "empty" });
    await waitForKeepersSettled(left, ready, 30_000);
    // Every change above happened while the workload ran.
    expect(workload.ended()).toBe(false);
    workload.end();

    expectChaosPassed(await workload.finished);
  }, 240_000);
});
