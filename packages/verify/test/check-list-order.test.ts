import { describe, expect, it } from "vitest";
import { checkListLinearizability } from "../src/check-linearizability.js";
import { checkListOrder } from "../src/check-list-order.js";
import { append, finalList, history, listGet, remove, windowIds } from "./history-builders.js";

describe("list order", () => {
  it("passes overlapping appends that show out of stamp order while the first is in flight", () => {
    // A1 is stamped first (its position comes first) but reaches the readers' replica after A2.
    const a1 = append("l", "p1-1", { at: [0, 100], process: 1 });
    const a2 = append("l", "p2-2", { at: [10, 20], process: 2 });
    const ops = [
      a1,
      a2,
      listGet("l", ["p2-2"], { at: [30, 40], process: 3 }),
      listGet("l", ["p1-1", "p2-2"], { at: [50, 60], process: 3 }),
      listGet("l", ["p1-1", "p2-2"], { at: [110, 120], process: 3 }),
    ];
    const final = [finalList("l", ["p1-1", "p2-2"])];
    const order = checkListOrder(history(ops, final));
    expect(order.result).toBe("pass");
    expect(order.counts).toMatchObject({ ops: 5, violations: 0 });
    expect(order.notes[0]).toMatch(/^checked 3 read\(s\) of 1 list key\(s\)/);
    expect(checkListLinearizability(history(ops, final)).result).toBe("pass");
  });

  it("catches an append shown before one that completed before it began (real-time order)", () => {
    const a1 = append("l", "p1-1", { at: [0, 5], process: 1 });
    const a2 = append("l", "p2-2", { at: [10, 20], process: 2 });
    const swapped = listGet("l", ["p2-2", "p1-1"], { at: [30, 40], process: 3 });
    const ops = [a1, a2, listGet("l", ["p1-1"], { at: [6, 7] }), swapped];
    const verdict = checkListOrder(history(ops));
    expect(verdict.result).toBe("fail");
    expect(verdict.counts.violations).toBe(1);
    expect(verdict.violations[0]!.kind).toBe("list-order-real-time");
    expect(verdict.violations[0]!.message).toContain('shows "p2-2" before "p1-1"');
    expect(windowIds(verdict.violations[0]!.window)).toEqual([a1.id, a2.id, swapped.id]);
    expect(verdict.notes[0]).toMatch(/1 list key\(s\) have no final read/);
  });

  it("catches the real-time order broken in the final list", () => {
    const a1 = append("l", "p1-1", { at: [0, 5] });
    const a2 = append("l", "p2-2", { at: [10, 20] });
    const final = finalList("l", ["p2-2", "p1-1"]);
    const verdict = checkListOrder(history([a1, a2], [final]));
    expect(verdict.result).toBe("fail");
    expect(windowIds(verdict.violations[0]!.window)).toEqual([a1.id, a2.id, "final"]);
  });

  it("catches two reads after both appends returned that disagree on their order (stability)", () => {
    // Overlapping appends: either order is allowed, but only one of them for good.
    const a = append("l", "p1-1", { at: [0, 100], process: 1 });
    const b = append("l", "p2-2", { at: [0, 100], process: 2 });
    const ab = listGet("l", ["p1-1", "p2-2"], { at: [110, 120], process: 3 });
    const ba = listGet("l", ["p2-2", "p1-1"], { at: [130, 140], process: 3 });
    const later = append("l", "p3-3", { at: [150, 160] });
    const final = finalList("l", ["p1-1", "p2-2", "p3-3"]);
    const verdict = checkListOrder(history([a, b, ab, ba, later], [final]));
    expect(verdict.result).toBe("fail");
    expect(verdict.counts.violations).toBe(1);
    expect(verdict.violations[0]!.kind).toBe("list-order-unstable");
    expect(windowIds(verdict.violations[0]!.window)).toEqual([a.id, b.id, ba.id, "final"]);
    // Their contents are right: the linearizability of contents has nothing to say.
    expect(checkListLinearizability(history([a, b, ab, ba, later], [final])).result).toBe("pass");
  });

  it("holds unacknowledged appends to no order, and skips elements nobody appended", () => {
    const settled = append("l", "p1-1", { at: [0, 5] });
    const timedOut = append("l", "p2-2", { at: [1, 2], status: "unknown" });
    const ops = [
      settled,
      timedOut,
      listGet("l", ["p2-2", "p1-1"], { at: [10, 11] }),
      listGet("l", ["p1-1", "p2-2", "p9-9"], { at: [12, 13] }),
      remove("l", "p2-2", 1, { at: [14, 15] }),
    ];
    expect(checkListOrder(history(ops, [finalList("l", ["p1-1"])])).result).toBe("pass");
  });

  it("checks a thousand-element list read 3000 times in one pass per read", () => {
    const appends = Array.from({ length: 1000 }, (_, i) => append("l", `p0-${i}`, { at: [i, i + 0.5] }));
    const values = appends.map((op) => op.value!);
    const reads = Array.from({ length: 3000 }, (_, i) =>
      listGet("l", values.slice(0, Math.min(1000, i)), { at: [1000 + i, 1000.5 + i] }),
    );
    const started = performance.now();
    const verdict = checkListOrder(history([...appends, ...reads], [finalList("l", values)]));
    expect(verdict.result).toBe("pass");
    // About 100 ms of CPU (see the package README); generous for a shared two-core machine.
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
