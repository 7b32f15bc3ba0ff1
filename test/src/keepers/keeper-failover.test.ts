// Keeper failover (HAZARDS.md 8). Three keepers; a backend dies, and the
// keeper that owns it is SIGKILLed at a random point of that backend's repair:
// before the death is noticed, while the intent is recorded, mid-copy, or
// after. Twenty seeded runs on one cluster (the dead backend and keeper are
// restarted between runs): each time the successor finishes the work — every
// bin has three complete copies on its replicas, read directly, and the keeper
// log holds no unfinished intent.
import { BinClient } from "@binring/client";
import { HashRing } from "@binring/core";
import { afterAll, expect, it } from "vitest";
import {
  keeperStatus,
  LocalCluster,
  MULTI_KEEPER_ARGS,
  waitFor,
  waitForKeepersSettled,
} from "../support/index.js";
import { seededRandom } from "../support/seeded-random.js";
import { expectThreeCompleteCopies, type WrittenData, waitForFinishedLog } from "./copies.js";

const RUNS = 20;
const BINS_PER_RUN = 6;
const KEYS_PER_BIN = 25;
/** Generous: on a loaded machine a rejoin (backend fill and slice hand-back) has taken 26 s. */
const SETTLE_MS = 60_000;

let cluster: LocalCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

/** The randomised kill point is the scenario itself: a plain wait is what it means. */
const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it(`the successor finishes a repair whose keeper was killed at a random point (${RUNS} runs)`, async () => {
  cluster = await LocalCluster.start({
    backends: 5,
    keepers: 3,
    keeperArgs: [...MULTI_KEEPER_ARGS, "--copy-batch", "5"],
  });
  const running = cluster;
  const https = () => running.keeperHttp.filter((http): http is string => http !== undefined);
  const allReady = Object.fromEntries(running.addresses.map((a) => [a, "ready"]));
  await waitForKeepersSettled(https(), allReady, SETTLE_MS);
  const client = new BinClient({ backends: running.addresses, keepers: running.keepers, viewRefreshMs: 200 });
  const ring = new HashRing(running.addresses.map((id) => ({ id })));
  const data: WrittenData = new Map();
  const recoveredIn: number[] = [];
  const startedAt = performance.now();

  for (let run = 0; run < RUNS; run++) {
    const random = seededRandom(run + 1);
    await Promise.all(
      Array.from({ length: BINS_PER_RUN }, async (_, b) => {
        const bin = `run${run}-bin${b}`;
        const values = new Map(
          Array.from({ length: KEYS_PER_BIN }, (_, k) => [`k${k}`, `v${run}.${b}.${k}`]),
        );
        await Promise.all([...values].map(([key, value]) => client.bin(bin).set(key, value)));
        data.set(bin, values);
      }),
    );
    const victim = running.addresses[Math.floor(random() * running.addresses.length)]!;
    const owner = (await keeperStatus(https()[0]!)).backends.find((b) => b.address === victim)!.owner!;
    const ownerIndex = running.keepers.indexOf(owner);
    const ownerHttp = running.keeperHttp[ownerIndex]!;
    await running.kill(victim);
    if (run % 2 === 1) {
      // Odd runs: kill the owner once its repair of the victim is under way, at a random point of it.
      await waitFor(
        `keeper ${ownerIndex} to start repairing ${victim}`,
        async () => (await keeperStatus(ownerHttp)).repairs.some((r) => r.backend === victim),
        { timeoutMs: 15_000, intervalMs: 10 },
      );
      await after(random() * 200);
    } else {
      // Even runs: anywhere from before the death is noticed (about 1 s) to after the repair.
      await after(random() * 1500);
    }
    await running.killKeeper(ownerIndex);
    const survivors = await waitForKeepersSettled(https(), { [victim]: "dead" }, SETTLE_MS);

    await expectThreeCompleteCopies(ring, (id) => id !== victim, data);
    await waitForFinishedLog(running.addresses.filter((id) => id !== victim));
    if (survivors.some((s) => s.completedRepairs.some((r) => r.recovered && r.backend === victim))) {
      recoveredIn.push(run);
    }

    await Promise.all([running.restart(victim, { redis: "old" }), running.startKeeper(ownerIndex)]);
    await waitForKeepersSettled(https(), allReady, SETTLE_MS);
  }
  await expectThreeCompleteCopies(ring, () => true, data);
  // Some kills must have landed between the commit point and the end of the copy.
  expect(recoveredIn.length).toBeGreaterThan(0);
  console.info(
    `keeper failover: ${RUNS} runs in ${Math.round(performance.now() - startedAt)} ms; the successor finished a recorded repair in runs ${JSON.stringify(recoveredIn)}`,
  );
  await client.close();
}, 300_000);
