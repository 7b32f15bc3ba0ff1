// The readiness state machine: every event from every state, and the lease.
import { describe, expect, it } from "vitest";
import { READINESS_TRANSITIONS, Readiness, type ReadinessState } from "../src/readiness.js";

function readinessIn(state: ReadinessState, clock = { now: 0 }): Readiness {
  const readiness = new Readiness(state === "ready", () => clock.now);
  if (state === "needs-fill") readiness.lostEntries("test");
  if (state === "retired") readiness.retire();
  expect(readiness.state).toBe(state);
  return readiness;
}

const STATES: readonly ReadinessState[] = ["not-ready", "ready", "needs-fill", "retired"];

const EVENTS = {
  granted: (r: Readiness) => r.grant(true, 0),
  renewed: (r: Readiness) => r.grant(false, 0),
  revoked: (r: Readiness) => r.revoke(),
  "lost-entries": (r: Readiness) => r.lostEntries("test"),
  retired: (r: Readiness) => r.retire(),
  "re-added": (r: Readiness) => r.reAdd(),
};

describe("readiness transitions", () => {
  for (const [event, fire] of Object.entries(EVENTS) as [keyof typeof EVENTS, (r: Readiness) => unknown][]) {
    for (const from of STATES) {
      const to = READINESS_TRANSITIONS[event][from];
      it(`${event} from ${from}: ${to ?? "refused, unchanged"}`, () => {
        const readiness = readinessIn(from);
        const taken = fire(readiness);
        expect(readiness.state).toBe(to ?? from);
        if (typeof taken === "boolean") expect(taken).toBe(to !== undefined);
      });
    }
  }

  it("a renewal is refused when not ready and after a loss; only a grant after a fill is not", () => {
    expect(readinessIn("not-ready").grant(false, 1000)).toBe(false);
    expect(readinessIn("needs-fill").grant(false, 1000)).toBe(false);
    expect(readinessIn("needs-fill").grant(true, 1000)).toBe(true);
  });

  it("a retired backend takes no grant or renewal, from any state, until re-added; then only a grant after a fill", () => {
    for (const from of STATES) {
      const readiness = readinessIn(from);
      readiness.retire();
      expect(readiness.grant(true, 0)).toBe(false);
      expect(readiness.grant(false, 2500)).toBe(false);
      expect(readiness.ready).toBe(false);
      readiness.reAdd();
      expect(readiness.grant(false, 2500)).toBe(false);
      expect(readiness.grant(true, 2500)).toBe(true);
    }
  });

  it("a lease lapses at its end; a renewal before then extends it, one after is refused", () => {
    const clock = { now: 0 };
    const readiness = readinessIn("not-ready", clock);
    readiness.grant(true, 2500);
    clock.now = 2000;
    expect(readiness.grant(false, 2500)).toBe(true);
    clock.now = 4499;
    expect(readiness.ready).toBe(true);
    clock.now = 4500;
    expect(readiness.state).toBe("not-ready");
    expect(readiness.grant(false, 2500)).toBe(false);
    expect(readiness.ready).toBe(false);
  });

  it("a grant without a lease lasts until revoked", () => {
    const clock = { now: 0 };
    const readiness = readinessIn("not-ready", clock);
    readiness.grant(true, 0);
    clock.now = 1e12;
    expect(readiness.ready).toBe(true);
    readiness.revoke();
    expect(readiness.ready).toBe(false);
  });
});
