import { describe, expect, it } from "vitest";
import { checkClock } from "../src/check-clock.js";
import { clock, history, windowIds } from "./history-builders.js";

describe("clock", () => {
  it("catches a clock going backwards in a bin", () => {
    const before = clock("1000005", { at: [0, 1] });
    const backwards = clock("1000002", { at: [10, 11], process: 2 });
    const verdict = checkClock(history([clock("1000001", { at: [0, 0.5] }), before, backwards]));
    expect(verdict.result).toBe("fail");
    expect(verdict.counts).toMatchObject({ ops: 3, violations: 1 });
    expect(verdict.violations[0]!.kind).toBe("clock-not-increasing");
    expect(windowIds(verdict.violations[0]!.window)).toEqual([before.id, backwards.id]);
  });

  it("requires a strict increase, but lets concurrent calls return anything", () => {
    const equal = [clock("7", { at: [0, 1] }), clock("7", { at: [2, 3] })];
    expect(checkClock(history(equal)).violations[0]!.kind).toBe("clock-not-increasing");
    const concurrent = [
      clock("9", { at: [0, 10] }),
      clock("3", { at: [5, 15] }),
      clock("10", { at: [20, 21] }),
    ];
    expect(checkClock(history(concurrent)).result).toBe("pass");
  });

  it("across bins, needs no smaller only a second after", () => {
    const a = clock("500", { at: [0, 10], bin: "a" });
    const soon = clock("100", { at: [500, 510], bin: "b" });
    expect(checkClock(history([a, soon])).result).toBe("pass");
    const late = clock("499", { at: [1010, 1020], bin: "b" });
    const verdict = checkClock(history([a, late]));
    expect(verdict.violations[0]!.kind).toBe("clock-behind-across-bins");
    expect(windowIds(verdict.violations[0]!.window)).toEqual([a.id, late.id]);
  });

  it("ignores calls without an answer and checks atLeast", () => {
    const ops = [clock("9", { at: [0, 1] }), clock("1", { at: [2, 3], status: "unknown" })];
    expect(checkClock(history(ops)).counts).toMatchObject({ ops: 2, ok: 1, unknown: 1, violations: 0 });
    const below = checkClock(history([clock("5", { at: [0, 1] }, "6")]));
    expect(below.violations[0]!.kind).toBe("clock-below-at-least");
  });
});
