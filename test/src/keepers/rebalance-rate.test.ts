// `binring keeper --rebalance-rate N` on real processes: a fill applies about N
// bytes a second to the backend it fills, the rate `binring status` shows,
// however its stretches are read (keeper-options.ts `rebalanceBytesPerSecond`);
// `binring status --json` gives that pace and the time left.
import { BinClient, type KeeperStatus, type RepairReport } from "@binring/client";
import { afterAll, describe, expect, it } from "vitest";
import {
  type BackendProcess,
  FAST_KEEPER_ARGS,
  keeperStatus,
  LocalCluster,
  runCli,
  startBackendProcess,
  waitForSettled,
} from "../support/index.js";

const RATE = 96 * 1024;
const BINS = 2800;
const VALUE = "v".repeat(200);

let cluster: LocalCluster | undefined;
let added: BackendProcess | undefined;
let client: BinClient | undefined;
afterAll(async () => {
  await client?.close();
  await added?.child.kill("SIGKILL");
  await cluster?.stop();
});

/** A running fill's bytes applied so far, with how long it had run, as its keeper reports them. */
interface Sample {
  runningMs: number;
  bytesCopied: number;
}

/** The running fill of `backend` as `binring status --json` reports it, if one runs. */
async function runningFillFromCli(config: string, backend: string): Promise<RepairReport | undefined> {
  const run = await runCli(["status", "--json", "--config", config]);
  expect(run.code).toBe(0);
  const status = JSON.parse(run.stdout) as KeeperStatus;
  return status.repairs.find((r) => r.kind === "fill" && r.backend === backend && r.state === "running");
}

describe("the rebalance rate", () => {
  it("is what a fill applies per second to the backend it fills", async () => {
    cluster = await LocalCluster.start({
      backends: 3,
      keepers: 1,
      keeperArgs: [...FAST_KEEPER_ARGS, "--rebalance-rate", String(RATE)],
    });
    const c = cluster;
    const http = (await c.keeperProcesses[0]!.waitForLine(/"http":"([^"]+)"/))[1]!;
    await waitForSettled(http, Object.fromEntries(c.addresses.map((a) => [a, "ready"])));
    client = await BinClient.fromConfig(c.configPath);
    for (let i = 0; i < BINS; i += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, j) => client!.bin(`rate-${i + j}`).set("k", VALUE)));
    }

    added = await startBackendProcess();
    const adding = runCli(["admin", "add-backend", added.address, "--wait", "--config", c.configPath]);
    const samples: Sample[] = [];
    let done = false;
    void adding.finally(() => {
      done = true;
    });
    let fromCli: RepairReport | undefined;
    while (!done) {
      const fill = (await keeperStatus(http)).repairs.find(
        (r) => r.kind === "fill" && r.backend === added!.address && r.state === "running",
      );
      if (fill?.runningMs !== undefined && fill.bytesCopied !== undefined && fill.bytesCopied > 0) {
        samples.push({ runningMs: fill.runningMs, bytesCopied: fill.bytesCopied });
        fromCli ??= await runningFillFromCli(c.configPath, added.address);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await adding).code).toBe(0);

    // The added backend takes about three quarters of the bins' copies: some 500 KB, about 5 s at
    // the rate. A paced source sends 1000 entries at a time (about 120 KB here), so the rate is
    // taken from the first batch applied to the last, which may run a quarter second ahead of it:
    // at most the rate with that allowance, and not a third of it.
    const first = samples[0]!;
    const final = samples.at(-1)!.bytesCopied;
    const last = samples.find((sample) => sample.bytesCopied === final)!;
    expect(last.runningMs - first.runningMs).toBeGreaterThan(2500);
    const rate = ((final - first.bytesCopied) * 1000) / (last.runningMs - first.runningMs);
    expect(rate).toBeLessThan(RATE * 1.25);
    expect(rate).toBeGreaterThan(RATE * 0.6);

    // `binring status --json` gives the pace its table shows: the rate so far and the time left.
    expect(fromCli).toBeDefined();
    expect(fromCli!.bytesPerSecond).toBe(Math.round((fromCli!.bytesCopied! * 1000) / fromCli!.runningMs!));
    if (fromCli!.tasksDone! > 0 && fromCli!.tasksDone! < fromCli!.tasksTotal!) {
      expect(fromCli!.etaMs).toBeGreaterThan(0);
    }
  });
});
