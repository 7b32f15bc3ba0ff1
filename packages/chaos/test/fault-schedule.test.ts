// The fault schedule stays inside the failure model whatever the state and the
// seed: never a third impaired backend, never a backend fault before repair
// has settled, never the last keeper; and a seed replays the same choices.
import { describe, expect, it } from "vitest";
import {
  MAX_IMPAIRED_BACKENDS,
  MAX_MEMBERS,
  MIN_MEMBERS_AFTER_REMOVE,
  nextFault,
  type PlannedFault,
  type ScheduleState,
} from "../src/fault-schedule.js";
import { Random } from "../src/random.js";

const TIMING = { faultEveryMs: 5000 };

function state(overrides: Partial<ScheduleState> = {}): ScheduleState {
  return {
    backends: 6,
    keepers: 3,
    impairedBackends: new Set(),
    impairedKeepers: new Set(),
    settled: true,
    ...overrides,
  };
}

/** Every state a run can be in: impaired backends 0..3 of 6, keepers down 0..3 of 3, settled or not. */
function* allStates(): Generator<ScheduleState> {
  for (const impaired of [[], [0], [2, 5], [1, 3, 4]]) {
    for (const down of [[], [1], [0, 2], [0, 1, 2]]) {
      for (const settled of [true, false]) {
        yield state({ impairedBackends: new Set(impaired), impairedKeepers: new Set(down), settled });
      }
    }
  }
}

function backendTargets(fault: PlannedFault | undefined): number[] {
  if (fault?.action === "kill-backend") return fault.targets;
  if (fault?.action === "pause-backend") return [fault.target];
  return [];
}

describe("nextFault", () => {
  it("never impairs a third backend, a settled cluster only, and never stops the last keeper", () => {
    for (const s of allStates()) {
      for (let seed = 0; seed < 200; seed++) {
        const fault = nextFault(s, Random.seeded(seed), TIMING);
        const targets = backendTargets(fault);
        if (targets.length > 0) {
          expect(s.settled).toBe(true);
          expect(s.impairedBackends.size + targets.length).toBeLessThanOrEqual(MAX_IMPAIRED_BACKENDS);
          expect(new Set(targets).size).toBe(targets.length);
          for (const target of targets) expect(s.impairedBackends.has(target)).toBe(false);
        }
        if (fault?.action === "kill-keeper" || fault?.action === "pause-keeper") {
          expect(s.impairedKeepers.has(fault.target)).toBe(false);
          expect(s.keepers - s.impairedKeepers.size).toBeGreaterThan(1);
        }
      }
    }
  });

  it("injects nothing while repair runs and only one keeper is up", () => {
    const s = state({ keepers: 1, settled: false, impairedBackends: new Set([2]) });
    for (let seed = 0; seed < 50; seed++) expect(nextFault(s, Random.seeded(seed), TIMING)).toBeUndefined();
  });

  it("with one keeper, faults only backends", () => {
    for (let seed = 0; seed < 200; seed++) {
      const fault = nextFault(state({ keepers: 1 }), Random.seeded(seed), TIMING);
      expect(fault?.action).toMatch(/^(kill|pause)-backend$/);
    }
  });

  it("draws every kind of fault and every way to kill a backend", () => {
    const seen = new Set<string>();
    const random = Random.seeded(1);
    for (let i = 0; i < 3000; i++) {
      const fault = nextFault(state(), random, TIMING)!;
      seen.add(
        fault.action === "kill-backend" ? `${fault.targets.length}x ${fault.how.join(",")}` : fault.action,
      );
    }
    expect(seen).toEqual(
      new Set([
        "pause-backend",
        "kill-keeper",
        "pause-keeper",
        "1x wipe",
        "1x backend",
        "1x with-redis",
        "1x redis",
        ...["wipe", "backend", "with-redis", "redis"].flatMap((a) =>
          ["wipe", "backend", "with-redis", "redis"].map((b) => `2x ${a},${b}`),
        ),
      ]),
    );
  });

  it("on the in-memory store kills only backend processes, alone and in pairs, and still pauses and kills keepers", () => {
    const seen = new Set<string>();
    const random = Random.seeded(1);
    for (let i = 0; i < 3000; i++) {
      const fault = nextFault(state({ inMemory: true }), random, TIMING)!;
      seen.add(
        fault.action === "kill-backend" ? `${fault.targets.length}x ${fault.how.join(",")}` : fault.action,
      );
    }
    expect(seen).toEqual(
      new Set(["pause-backend", "kill-keeper", "pause-keeper", "1x backend", "2x backend,backend"]),
    );
  });

  it("replays the same schedule from the same seed", () => {
    const draw = (seed: number) => {
      const random = Random.seeded(seed);
      return Array.from({ length: 20 }, () => nextFault(state(), random, TIMING));
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });
});

describe("membership faults", () => {
  const MEMBERSHIP = new Set(["process", "membership"] as const);

  it("add or remove a backend only in a settled cluster with room, and never touch a retired one", () => {
    for (const s of allStates()) {
      for (const retired of [new Set<number>(), new Set([0]), new Set([0, 1, 4])]) {
        const withMembership = { ...s, kinds: MEMBERSHIP, retired };
        for (let seed = 0; seed < 100; seed++) {
          const fault = nextFault(withMembership, Random.seeded(seed), TIMING);
          for (const target of backendTargets(fault)) expect(retired.has(target)).toBe(false);
          if (fault?.action !== "add-backend" && fault?.action !== "remove-backend") continue;
          expect(s.settled).toBe(true);
          const impaired = [...s.impairedBackends].filter((i) => !retired.has(i)).length;
          expect(impaired).toBeLessThan(MAX_IMPAIRED_BACKENDS);
          const members = s.backends - retired.size;
          if (fault.action === "add-backend") expect(members).toBeLessThan(MAX_MEMBERS);
          else {
            expect(members).toBeGreaterThan(MIN_MEMBERS_AFTER_REMOVE);
            expect(retired.has(fault.target) || s.impairedBackends.has(fault.target)).toBe(false);
          }
        }
      }
    }
  });

  it("draws an add and a remove first, while neither was injected, then among the others", () => {
    const first = nextFault(state({ kinds: MEMBERSHIP }), Random.seeded(3), TIMING)!;
    expect(["add-backend", "remove-backend"]).toContain(first.action);
    const second = nextFault(
      state({ kinds: MEMBERSHIP, injected: new Set([first.action as "add-backend"]) }),
      Random.seeded(3),
      TIMING,
    )!;
    expect(["add-backend", "remove-backend"].filter((a) => a !== first.action)).toContain(second.action);
    const seen = new Set<string>();
    const random = Random.seeded(5);
    for (let i = 0; i < 500; i++) {
      seen.add(
        nextFault(
          state({ kinds: MEMBERSHIP, injected: new Set(["add-backend", "remove-backend"]) }),
          random,
          TIMING,
        )!.action,
      );
    }
    expect(seen).toContain("kill-backend");
    expect(seen).toContain("add-backend");
  });

  it("adds no backend past the most the cluster can start (a network's namespaces)", () => {
    const full = state({
      kinds: MEMBERSHIP,
      backends: 6,
      maxBackends: 6,
      retired: new Set([0]),
      injected: new Set(["add-backend", "remove-backend"]),
    });
    const room = { ...full, maxBackends: 7 };
    const actions = (s: ScheduleState) => {
      const random = Random.seeded(11);
      return new Set(Array.from({ length: 500 }, () => nextFault(s, random, TIMING)?.action));
    };
    expect(actions(full)).not.toContain("add-backend");
    expect(actions(full)).toContain("remove-backend");
    expect(actions(room)).toContain("add-backend");
  });

  it("without the kind, never changes membership", () => {
    for (let seed = 0; seed < 300; seed++) {
      expect(nextFault(state(), Random.seeded(seed), TIMING)?.action).not.toMatch(/^(add|remove)-backend$/);
    }
  });
});

describe("Random.split", () => {
  it("gives streams that do not depend on how much the parent draws later", () => {
    const first = Random.seeded(7);
    const a = first.split();
    const second = Random.seeded(7);
    const b = second.split();
    for (let i = 0; i < 100; i++) second.int(0, 1000);
    expect(Array.from({ length: 10 }, () => a.int(0, 1_000_000))).toEqual(
      Array.from({ length: 10 }, () => b.int(0, 1_000_000)),
    );
  });
});
