// Every event of the backend health state machine from every state: the
// allowed ones lead where TRANSITIONS says, the others throw and change nothing.
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import {
  BackendHealth,
  type HealthEvent,
  type HealthState,
  IllegalTransitionError,
  TRANSITIONS,
} from "../src/backend-health.js";

const STATES: readonly HealthState[] = ["unknown", "ready", "suspect", "dead", "filling"];

function healthIn(state: HealthState): BackendHealth {
  const health = new BackendHealth("b:1", pino({ level: "silent" }), 0);
  if (state === "suspect") {
    health.apply("taken-over", { to: "ready" });
    health.apply("missed");
  } else health.apply("taken-over", { to: state });
  expect(health.state).toBe(state);
  return health;
}

const EXPECTED: Record<HealthEvent, Partial<Record<HealthState, HealthState>>> = {
  "fresh-cluster": { unknown: "ready" },
  "found-ready": { unknown: "ready" },
  "found-unready": { unknown: "filling" },
  missed: { ready: "suspect" },
  "answered-again": { suspect: "ready" },
  "declared-dead": { unknown: "dead", ready: "dead", suspect: "dead", filling: "dead" },
  rejoined: { dead: "filling", ready: "filling", suspect: "filling", filling: "filling" },
  filled: { filling: "ready" },
  "taken-over": { unknown: "dead", ready: "dead", suspect: "dead", dead: "dead", filling: "dead" },
};

describe("backend health transitions", () => {
  for (const [event, allowed] of Object.entries(EXPECTED) as [
    HealthEvent,
    Partial<Record<HealthState, HealthState>>,
  ][]) {
    for (const from of STATES) {
      const to = allowed[from];
      it(`${event} from ${from}: ${to ? `-> ${to}` : "refused"}`, () => {
        const health = healthIn(from);
        const detail = event === "taken-over" ? { to: "dead" as const } : undefined;
        if (to) {
          health.apply(event, detail);
          expect(health.state).toBe(to);
        } else {
          expect(() => health.apply(event, detail)).toThrow(IllegalTransitionError);
          expect(health.state).toBe(from);
        }
      });
    }
  }

  it("the table lists exactly these events", () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it("a death makes the next incarnation be emptied before its fill; ready again ends that", () => {
    const health = healthIn("ready");
    const reply = {
      incarnation: "a",
      ready: false,
      needsFill: false,
      storeOk: true,
      epoch: 1n,
      clock: 1n,
      keys: 0,
      lists: 0,
      bins: 0,
      claimedBy: "",
    };
    expect(health.mustBeEmptied(reply)).toBe(false);
    health.apply("declared-dead");
    expect(health.mustBeEmptied(reply)).toBe(true);
    health.apply("rejoined");
    health.apply("filled");
    expect(health.mustBeEmptied(reply)).toBe(false);
  });
});
