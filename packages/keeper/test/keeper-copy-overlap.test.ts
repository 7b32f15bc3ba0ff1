// A death's repair runs its copy tasks four at a time, and a fill's stand-ins
// drop what they gave up two at a time: each call to a backend takes a round
// trip, and one at a time a busy cluster waited mostly on round trips. A fill,
// paced, copies two tasks at a time, each source asked for half the rate. In
// process on a fake clock where every backend call takes 50 ms.
import { afterEach, expect, it } from "vitest";
import { DEFAULT_KEEPER_TIMING } from "../src/keeper-options.js";
import { KeeperWorld } from "./support/keeper-world.js";

const LATENCY_MS = 50;

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

interface CallStart {
  call: string;
  backend: string;
  at: number;
  detail: unknown;
}

/** Most calls of `call` that started at one instant, counting calls with equal details once (a task's sources share its ranges). */
function mostAtOnce(starts: readonly CallStart[], call: string): number {
  const byInstant = new Map<number, Set<string>>();
  for (const start of starts) {
    if (start.call !== call) continue;
    const same = byInstant.get(start.at) ?? new Set<string>();
    same.add(call === "drop" ? start.backend : JSON.stringify(start.detail));
    byInstant.set(start.at, same);
  }
  return Math.max(0, ...[...byInstant.values()].map((same) => same.size));
}

it("a repair's copy tasks run four at a time; a fill's two at a time, then its drops two at a time", async () => {
  world = new KeeperWorld({ backends: 6, keepers: 1 });
  const w = world;
  w.startAll();
  await w.until(() => w.allReady(), 10_000, "a fresh cluster is ready");
  for (let i = 0; i < 60; i++) await w.write(`bin-${i}`, "k", `v${i}`);

  const starts: CallStart[] = [];
  for (const backend of w.backends.values()) {
    backend.latencyMs = LATENCY_MS;
    backend.onCall = (call, detail) =>
      starts.push({ call, backend: backend.address, at: w.clock.now(), detail });
  }
  const address = w.addresses[0]!;
  const dying = w.backend(address);
  dying.fault = "down";
  await w.until(() => w.stateOf(address) === "dead", 15_000, "declared dead");
  await w.until(() => w.keeper(0).status().completedRepairs.length > 0, 30_000, "repaired");
  const repair = w.keeper(0).status().completedRepairs[0]!;
  expect(repair.kind).toBe("repair");
  expect(mostAtOnce(starts, "scan")).toBe(4);

  starts.length = 0;
  dying.restart("empty");
  dying.fault = "none";
  await w.until(() => w.stateOf(address) === "ready", 30_000, "filled after it returned");
  await w.until(() => w.keeper(0).status().completedRepairs.length > 1, 30_000, "the fill's drops done");
  expect(mostAtOnce(starts, "scan")).toBe(2);
  expect(mostAtOnce(starts, "drop")).toBe(2);
  const rate = DEFAULT_KEEPER_TIMING.rebalanceBytesPerSecond;
  expect(new Set(w.addresses.flatMap((a) => w.backend(a).scanRates).filter((r) => r > 0))).toEqual(
    new Set([rate / 2]),
  );
  // And the fill is whole: the returned backend holds each of its bins' entries.
  const held = Array.from({ length: 60 }, (_, i) => i).filter((i) =>
    w
      .keeper(0)
      .ring.replicasFor(`bin-${i}`, () => true)
      .includes(address),
  );
  expect(held.length).toBeGreaterThan(0);
  for (const i of held) expect(await w.stored(address, `bin-${i}`, "k")).toBe(`v${i}`);
});
