// When the runner counts a backend ready and the cluster settled, from the keepers' merged reports.
import { expect, it } from "vitest";
import { type ClusterHealth, isReady, isSettled, mergeKeeperReports } from "../src/keeper-status.js";

const BACKENDS = ["a", "b", "c"];

function health(states: Record<string, string[]>, repairsPending = 0, keepers = ["k0"]): ClusterHealth {
  return { keepers, caughtUp: keepers, repairsPending, states: new Map(Object.entries(states)) };
}

it("counts a backend ready only when every keeper that reports it says ready", () => {
  expect(isReady(health({ a: ["ready", "ready"] }), "a")).toBe(true);
  expect(isReady(health({ a: ["ready", "filling"] }), "a")).toBe(false);
  expect(isReady(health({}), "a")).toBe(false);
});

it("is settled when every backend is ready, or dead where the runner took it down, and no repair is pending", () => {
  expect(isSettled(health({ a: ["ready"], b: ["ready"], c: ["ready"] }), BACKENDS, new Set())).toBe(true);
  expect(isSettled(health({ a: ["ready"], b: ["dead"], c: ["ready"] }), BACKENDS, new Set(["b"]))).toBe(true);
});

it("is not settled while a repair runs, a killed backend is not yet declared dead, or a restarted one fills", () => {
  const allReady = { a: ["ready"], b: ["ready"], c: ["ready"] };
  expect(isSettled(health(allReady, 1), BACKENDS, new Set())).toBe(false);
  expect(isSettled(health({ ...allReady, b: ["suspect"] }), BACKENDS, new Set(["b"]))).toBe(false);
  expect(isSettled(health({ ...allReady, b: ["filling"] }), BACKENDS, new Set())).toBe(false);
  expect(isSettled(health({ ...allReady, b: ["dead"] }), BACKENDS, new Set())).toBe(false);
  expect(isSettled(health(allReady, 0, []), BACKENDS, new Set())).toBe(false);
});

it("counts a keeper caught up only once it reports a state for every backend", () => {
  const report = (keeper: string, states: string[]) => ({
    keeper,
    backends: states.map((state, i) => ({ address: BACKENDS[i]!, state })),
    repairs: [],
  });
  const merged = mergeKeeperReports(
    ["k0", "k1", "k2"],
    [report("k0", ["ready", "dead", "ready"]), report("k1", ["ready", "unknown", "unknown"]), undefined],
  );
  expect(merged.keepers).toEqual(["k0", "k1"]);
  expect(merged.caughtUp).toEqual(["k0"]);
});

it("leaves out a keeper off the keeper ring: it probes nothing, so its report is stale", () => {
  const merged = mergeKeeperReports(
    ["k0", "k1"],
    [
      { backends: [{ address: "a", state: "ready" }], repairs: [] },
      { backends: [{ address: "a", state: "dead" }], repairs: [{}], offRing: true },
    ],
  );
  expect(merged.keepers).toEqual(["k0"]);
  expect(merged.states.get("a")).toEqual(["ready"]);
  expect(merged.repairsPending).toBe(0);
});
