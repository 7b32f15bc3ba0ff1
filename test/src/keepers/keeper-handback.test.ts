// Two of three keepers are SIGKILLed, then a backend: the last keeper owns
// every backend and repairs it. Then the backend and both keepers return at
// once: the last keeper is filling the backend while the slices — the
// backend's included — are handed back. No repair or fill ever runs in two
// keepers at once (every keeper's /status sampled throughout), every intent in
// the keeper log ends done, each slice is back with its keeper, and every bin
// has three complete copies.
import { BinClient } from "@binring/client";
import { HashRing } from "@binring/core";
import { KeeperRing } from "@binring/keeper";
import { afterAll, expect, it } from "vitest";
import { keeperStatus, LocalCluster, MULTI_KEEPER_ARGS, waitForKeepersSettled } from "../support/index.js";
import { expectThreeCompleteCopies, type WrittenData, waitForFinishedLog } from "./copies.js";

let cluster: LocalCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

it("the last keeper repairs; returning keepers get their slices back with no repair run twice at once", async () => {
  cluster = await LocalCluster.start({
    backends: 5,
    keepers: 3,
    keeperArgs: [...MULTI_KEEPER_ARGS, "--copy-batch", "5"],
  });
  const running = cluster;
  const https = () => running.keeperHttp.filter((http): http is string => http !== undefined);
  const allReady = Object.fromEntries(running.addresses.map((a) => [a, "ready"]));
  await waitForKeepersSettled(https(), allReady, 60_000);
  const client = new BinClient({ backends: running.addresses, keepers: running.keepers, viewRefreshMs: 200 });
  const ring = new HashRing(running.addresses.map((id) => ({ id })));
  const data: WrittenData = new Map();
  await Promise.all(
    Array.from({ length: 10 }, async (_, b) => {
      const values = new Map(Array.from({ length: 40 }, (_, k) => [`k${k}`, `v${b}.${k}`]));
      await Promise.all([...values].map(([key, value]) => client.bin(`bin${b}`).set(key, value)));
      data.set(`bin${b}`, values);
    }),
  );

  await Promise.all([running.killKeeper(1), running.killKeeper(2)]);
  const [alone] = await waitForKeepersSettled(https(), allReady, 60_000);
  expect(alone!.keepers.find((k) => k.self)!.slice.sort()).toEqual([...running.addresses].sort());
  const natural = new KeeperRing(running.keepers).slices(running.addresses, () => true);
  const victim = running.addresses.find((a) => !natural.get(running.keepers[0]!)!.includes(a))!;
  await running.kill(victim);
  const [repaired] = await waitForKeepersSettled(https(), { [victim]: "dead" }, 60_000);
  expect(repaired!.completedRepairs.some((r) => r.kind === "repair" && r.backend === victim)).toBe(true);
  await expectThreeCompleteCopies(ring, (id) => id !== victim, data);

  const overlaps: string[] = [];
  let samples = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const statuses = await Promise.all(https().map((http) => keeperStatus(http).catch(() => undefined)));
      const runningOn = new Map<string, string>();
      for (const status of statuses) {
        for (const repair of status?.repairs ?? []) {
          if (repair.state !== "running") continue;
          const other = runningOn.get(repair.backend);
          if (other) overlaps.push(`${repair.kind} of ${repair.backend} in ${other} and ${status!.keeper}`);
          runningOn.set(repair.backend, status!.keeper);
        }
      }
      samples++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  await Promise.all([
    running.restart(victim, { redis: "old" }),
    running.startKeeper(1),
    running.startKeeper(2),
  ]);
  const settled = await waitForKeepersSettled(https(), allReady, 60_000);
  sampling = false;
  await sampler;

  expect(overlaps).toEqual([]);
  expect(samples).toBeGreaterThan(10);
  for (const keeper of settled[0]!.keepers) {
    expect(keeper.slice.sort(), `slice of ${keeper.address}`).toEqual(natural.get(keeper.address)!.sort());
  }
  const fills = settled.flatMap((s) =>
    s.completedRepairs.filter((r) => r.kind === "fill" && r.backend === victim),
  );
  expect(fills.length).toBeGreaterThan(0);
  const log = await waitForFinishedLog(running.addresses);
  expect(log.intents.some((intent) => intent.kind === "repair" && intent.backend === victim)).toBe(true);
  await expectThreeCompleteCopies(ring, () => true, data);
  await client.close();
}, 180_000);
