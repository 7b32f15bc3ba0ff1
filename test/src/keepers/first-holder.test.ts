// On real processes, a copy reads each stretch from its first holder alone
// while that one is ready (repair-plan.ts CopyTask.firstHolder): filling a
// joining backend reads each entry once, where reading every holder would
// read it from each of them. A stretch whose first replica died is still read
// from every survivor, which hold the same entries: that repair skips them.
import { BinClient } from "@binring/client";
import { afterAll, describe, expect, it } from "vitest";
import { type BackendProcess, LocalCluster, startBackendProcess, waitForSettled } from "../support/index.js";

const BINS = 200;

let cluster: LocalCluster | undefined;
let joined: BackendProcess | undefined;
let client: BinClient | undefined;
afterAll(async () => {
  await client?.close();
  await joined?.child.kill("SIGKILL");
  await cluster?.stop();
});

/**
 * The keeper's "repair finished" line for `backend`: the entries it copied and the duplicates it
 * skipped. `logged`: "any" takes one logged already, "next" only one logged from now on (a loaded
 * machine may have taken the backend for dead and repaired it once before).
 */
async function repairFinished(
  c: LocalCluster,
  backend: string,
  logged: "any" | "next",
): Promise<{ entries: number; skipped: number }> {
  const line = new RegExp(
    `"backend":"${backend}".*"entries":(\\d+).*"duplicatesSkipped":(\\d+).*"msg":"repair finished"`,
  );
  const match = await c.keeperProcesses[0]!.waitForLine(line, 30_000, logged === "any");
  return { entries: Number(match[1]), skipped: Number(match[2]) };
}

describe("a copy with a ready first holder", () => {
  it("fills a joining backend reading each entry once; a dead primary's stretches from every survivor", async () => {
    cluster = await LocalCluster.start({ backends: 4, keepers: 1 });
    const c = cluster;
    const http = (await c.keeperProcesses[0]!.waitForLine(/"http":"([^"]+)"/))[1]!;
    await waitForSettled(http, Object.fromEntries(c.addresses.map((a) => [a, "ready"])));
    client = await BinClient.fromConfig(c.configPath, { viewRefreshMs: 200 });
    for (let i = 0; i < BINS; i++) await client.bin(`f${i}`).set("k", `v${i}`);

    joined = await startBackendProcess({ extraArgs: ["--join", "--config", c.configPath] });
    await waitForSettled(http, { [joined.address]: "ready" }, 30_000);
    const fill = await repairFinished(c, joined.address, "any");
    expect(fill.entries).toBeGreaterThan(0);
    expect(fill.skipped).toBe(0);

    const dead = c.addresses[0]!;
    const repaired = repairFinished(c, dead, "next");
    await c.kill(dead, { withRedis: true });
    const repair = await repaired;
    expect(repair.entries).toBeGreaterThan(0);
    expect(repair.skipped).toBeGreaterThan(0);
    for (let i = 0; i < BINS; i++) expect(await client.bin(`f${i}`).get("k")).toBe(`v${i}`);
  }, 120_000);
});
