// Network faults stay inside the failure model whatever the state and the
// seed: the backends they touch never make more than 2 impaired, only a
// settled cluster gets one, a keeper is partitioned only while another runs
// and no backend is impaired,
// keepers are never cut from each other unless the run asks for it; each kind
// comes first until it has been injected; and a run without network faults
// draws exactly what it drew before they existed.
import { describe, expect, it } from "vitest";
import {
  MAX_IMPAIRED_BACKENDS,
  nextFault,
  type PlannedFault,
  type ScheduleState,
} from "../src/fault-schedule.js";
import {
  type FaultKind,
  faultNodes,
  holdsBackendFaults,
  type NetworkAction,
  networkImpairs,
  type PlannedNetworkFault,
} from "../src/network-schedule.js";
import { Random } from "../src/random.js";

const TIMING = { faultEveryMs: 4000 };
const NETWORK_ACTIONS = new Set<string>([
  "partition",
  "cut-clients",
  "cut-one-way",
  "slow-link",
  "partition-keepers",
]);

function state(kinds: FaultKind[], overrides: Partial<ScheduleState> = {}): ScheduleState {
  return {
    backends: 6,
    keepers: 3,
    impairedBackends: new Set(),
    impairedKeepers: new Set(),
    settled: true,
    kinds: new Set(kinds),
    ...overrides,
  };
}

/** Every state a run can be in, with some network kinds already injected or none. */
function* allStates(kinds: FaultKind[]): Generator<ScheduleState> {
  for (const impaired of [[], [0], [2, 5], [1, 3, 4]]) {
    for (const down of [[], [1], [0, 2], [0, 1, 2]]) {
      for (const settled of [true, false]) {
        for (const injected of [
          new Set<NetworkAction>(),
          new Set<NetworkAction>(["partition", "cut-clients", "cut-one-way", "slow-link"]),
        ]) {
          yield state(kinds, {
            impairedBackends: new Set(impaired),
            impairedKeepers: new Set(down),
            settled,
            injected,
          });
        }
      }
    }
  }
}

function isNetwork(fault: PlannedFault | undefined): fault is PlannedNetworkFault {
  return fault !== undefined && NETWORK_ACTIONS.has(fault.action);
}

describe("network faults in the schedule", () => {
  it("keep every state inside the failure model", () => {
    for (const kinds of [
      ["network"],
      ["process", "network"],
      ["network", "keeper-partition"],
    ] as FaultKind[][]) {
      for (const s of allStates(kinds)) {
        for (let seed = 0; seed < 100; seed++) {
          const fault = nextFault(s, Random.seeded(seed), TIMING);
          if (!isNetwork(fault)) continue;
          const { backends, keepers } = networkImpairs(fault);
          if (backends.length > 0) {
            expect(s.settled).toBe(true);
            expect(s.impairedBackends.size + backends.length).toBeLessThanOrEqual(MAX_IMPAIRED_BACKENDS);
          }
          for (const node of faultNodes(fault)) {
            const keeper = /^keeper-(\d+)$/.exec(node);
            if (keeper) expect(s.impairedKeepers.has(Number(keeper[1]))).toBe(false);
          }
          for (const i of backends) expect(s.impairedBackends.has(i)).toBe(false);
          for (const i of keepers) expect(s.impairedKeepers.has(i)).toBe(false);
          // A keeper cut from its peers comes back with stale verdicts: only into a settled, whole cluster.
          if (holdsBackendFaults(fault)) {
            expect(s.settled).toBe(true);
            expect(s.impairedBackends.size).toBe(0);
          }
          // A keeper stays live and unimpaired besides those the fault touches.
          if (keepers.length > 0)
            expect(s.keepers - s.impairedKeepers.size - keepers.length).toBeGreaterThan(0);
          const keeperPairs = keepers.length === 2 || fault.action === "partition-keepers";
          if (keeperPairs) expect(kinds).toContain("keeper-partition");
          expect(fault.downMs).toBeGreaterThanOrEqual(500);
          expect(fault.downMs).toBeLessThanOrEqual(2 * TIMING.faultEveryMs);
          if (fault.action === "slow-link") {
            expect(fault.link.kbitPerSecond).toBeGreaterThanOrEqual(64);
            expect(fault.link.kbitPerSecond).toBeLessThanOrEqual(1024);
            expect(fault.link.lossPercent).toBeGreaterThanOrEqual(1);
            expect(fault.link.lossPercent).toBeLessThanOrEqual(20);
            expect(fault.between[0]).not.toBe(fault.between[1]);
          }
          if (fault.action === "cut-one-way") expect(fault.from).not.toBe(fault.to);
          if (fault.action === "cut-clients") expect(new Set(fault.targets).size).toBe(fault.targets.length);
        }
      }
    }
  });

  it("are never drawn without the network kind, and process faults never with network alone", () => {
    for (let seed = 0; seed < 300; seed++) {
      expect(isNetwork(nextFault(state(["process"]), Random.seeded(seed), TIMING))).toBe(false);
      const networkOnly = nextFault(state(["network"]), Random.seeded(seed), TIMING);
      expect(isNetwork(networkOnly)).toBe(true);
      expect(networkOnly?.action).not.toBe("partition-keepers");
    }
  });

  it("leave a process-only run's draws exactly as they were", () => {
    const draw = (s: ScheduleState) => {
      const random = Random.seeded(11);
      return Array.from({ length: 50 }, () => nextFault(s, random, TIMING));
    };
    const { kinds: _, ...withoutKinds } = state(["process"]);
    expect(draw(state(["process"]))).toEqual(draw(withoutKinds));
  });

  it("inject each default kind first, in a settled cluster, before any process fault", () => {
    for (let seed = 0; seed < 100; seed++) {
      const random = Random.seeded(seed);
      const injected = new Set<NetworkAction>();
      for (let i = 0; i < 4; i++) {
        const fault = nextFault(state(["process", "network"], { injected }), random, TIMING);
        expect(isNetwork(fault)).toBe(true);
        expect(injected.has(fault!.action as NetworkAction)).toBe(false);
        injected.add(fault!.action as NetworkAction);
      }
      expect(injected).toEqual(new Set(["partition", "cut-clients", "cut-one-way", "slow-link"]));
    }
  });

  it("draw keeper-only partitions only with keeper-partition, and every other kind and target over many seeds", () => {
    const seen = new Set<string>();
    const injected = new Set<NetworkAction>([
      "partition",
      "cut-clients",
      "cut-one-way",
      "slow-link",
      "partition-keepers",
    ]);
    const random = Random.seeded(3);
    for (let i = 0; i < 3000; i++) {
      const fault = nextFault(state(["network", "keeper-partition"], { injected }), random, TIMING);
      if (!isNetwork(fault)) continue;
      // The shape of what it touches, e.g. "cut-one-way keeper>backend".
      const shape = faultNodes(fault).map((node) => node.replace(/-\d+$/, ""));
      seen.add(`${fault.action} ${shape.join(fault.action === "cut-one-way" ? ">" : "+")}`);
    }
    expect(seen).toEqual(
      new Set([
        "partition backend",
        "partition keeper",
        "cut-clients backend",
        "cut-clients backend+backend",
        "cut-one-way backend>backend",
        "cut-one-way backend>keeper",
        "cut-one-way keeper>backend",
        "cut-one-way keeper>keeper",
        "slow-link clients+backend",
        "slow-link backend+backend",
        "slow-link backend+keeper",
        "slow-link keeper+keeper",
        "partition-keepers keeper",
      ]),
    );
  });

  it("count a partitioned backend as cut off (to be declared dead), a keeper only when cut from keepers", () => {
    expect(networkImpairs({ action: "partition", target: "backend-4", downMs: 1000 })).toEqual({
      backends: [4],
      keepers: [],
      cutOff: [4],
    });
    expect(
      networkImpairs({ action: "cut-one-way", from: "keeper-1", to: "backend-0", downMs: 1000 }),
    ).toEqual({
      backends: [0],
      keepers: [],
      cutOff: [],
    });
    expect(networkImpairs({ action: "partition", target: "keeper-2", downMs: 1000 })).toEqual({
      backends: [],
      keepers: [2],
      cutOff: [],
    });
  });
});
