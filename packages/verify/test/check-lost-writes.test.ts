import { describe, expect, it } from "vitest";
import { checkLostWrites } from "../src/check-lost-writes.js";
import {
  append,
  finalList,
  finalString,
  get,
  history,
  listGet,
  remove,
  set,
  windowIds,
} from "./history-builders.js";

describe("lost sets", () => {
  it("catches an acknowledged set overwritten in the final state by an older write", () => {
    const old = set("k", "p1-1", { at: [0, 10] });
    const acknowledged = set("k", "p2-2", { at: [20, 30], process: 2 });
    const verdict = checkLostWrites(history([old, acknowledged], [finalString("k", "p1-1")]));
    expect(verdict.result).toBe("fail");
    expect(verdict.counts).toMatchObject({ ops: 2, ok: 2, lost: 1, violations: 1 });
    expect(verdict.violations[0]!.kind).toBe("lost-write");
    expect(windowIds(verdict.violations[0]!.window)).toEqual([old.id, acknowledged.id, "final"]);
  });

  it("catches an acknowledged set when the key reads unset and nothing deleted it", () => {
    const acknowledged = set("k", "p1-1", { at: [0, 10] });
    const verdict = checkLostWrites(history([acknowledged], [finalString("k", null)]));
    expect(verdict.counts.lost).toBe(1);
    expect(windowIds(verdict.violations[0]!.window)).toEqual([acknowledged.id, "final"]);
  });

  it("passes when the final value's write could be last", () => {
    const ops = [
      set("k", "p1-1", { at: [0, 50] }),
      set("k", "p2-2", { at: [10, 20], process: 2 }),
      // Concurrent with p1-1, so p1-1 may have landed after it.
      set("k", "p3-3", { at: [60, 70], status: "unknown", process: 3 }),
    ];
    expect(checkLostWrites(history(ops.slice(0, 2), [finalString("k", "p1-1")])).result).toBe("pass");
    // An unknown write may land any time after its call, so it may be the final value.
    expect(checkLostWrites(history(ops, [finalString("k", "p3-3")])).result).toBe("pass");
    // A delete that may have happened after the acknowledged set explains an unset key.
    const deleted = [set("k", "p1-1", { at: [0, 10] }), set("k", "", { at: [5, 15], status: "fail" })];
    expect(checkLostWrites(history(deleted, [finalString("k", null)])).result).toBe("pass");
  });

  it("reports keys with acknowledged writes but no final read as unknown", () => {
    const verdict = checkLostWrites(history([set("k", "p1-1", { at: [0, 10] })]));
    expect(verdict.result).toBe("unknown");
    expect(verdict.notes[0]).toMatch(/1 key\(s\) with acknowledged writes have no final read/);
  });
});

describe("phantoms", () => {
  it("catches a read and a final value nobody wrote", () => {
    const read = get("k", "p9-9", { at: [0, 1] });
    const verdict = checkLostWrites(
      history([set("k", "p1-1", { at: [0, 1] }), read], [finalString("k", "p7-7")]),
    );
    expect(verdict.result).toBe("fail");
    expect(verdict.violations.map((v) => v.kind)).toEqual(["phantom", "phantom"]);
    expect(windowIds(verdict.violations[0]!.window)).toEqual([read.id]);
    expect(windowIds(verdict.violations[1]!.window)).toEqual(["final"]);
  });

  it("catches a value written to another key", () => {
    const ops = [set("a", "p1-1", { at: [0, 1] }), get("b", "p1-1", { at: [2, 3] })];
    expect(checkLostWrites(history(ops)).violations[0]!.kind).toBe("phantom");
  });

  it("catches a list element nobody appended", () => {
    const read = listGet("l", ["p1-1", "p5-5"], { at: [2, 3] });
    const verdict = checkLostWrites(history([append("l", "p1-1", { at: [0, 1] }), read]));
    expect(verdict.violations).toHaveLength(1);
    expect(verdict.violations[0]).toMatchObject({ kind: "phantom", window: [read] });
  });
});

describe("lists", () => {
  it("catches a duplicate element in a read and in the final list", () => {
    const appendOnce = append("l", "p1-1", { at: [0, 1] });
    const read = listGet("l", ["p1-1", "p1-1"], { at: [2, 3] });
    const verdict = checkLostWrites(history([appendOnce, read], [finalList("l", ["p1-1", "p1-1"])]));
    expect(verdict.violations.map((v) => v.kind)).toEqual(["duplicate", "duplicate"]);
    expect(windowIds(verdict.violations[0]!.window)).toEqual([appendOnce.id, read.id]);
  });

  it("catches an acknowledged append missing from the final list", () => {
    const kept = append("l", "p1-1", { at: [0, 1] });
    const lostAppend = append("l", "p2-2", { at: [0, 2], process: 2 });
    const verdict = checkLostWrites(history([kept, lostAppend], [finalList("l", ["p1-1"])]));
    expect(verdict.counts).toMatchObject({ lost: 1, violations: 1 });
    expect(verdict.violations[0]!.kind).toBe("lost-append");
    expect(windowIds(verdict.violations[0]!.window)).toEqual([lostAppend.id, "final"]);
  });

  it("allows an append to be gone when a remove could follow it", () => {
    const ops = [
      append("l", "p1-1", { at: [0, 10] }),
      remove("l", "p1-1", 0, { at: [5, 6] }), // overlaps the append: may come after it
      append("l", "p2-2", { at: [0, 10] }),
      remove("l", "p2-2", 0, { at: [20, 20], status: "unknown" }),
    ];
    expect(checkLostWrites(history(ops, [finalList("l", [])])).result).toBe("pass");
  });

  it("does not let a remove that finished before the append excuse it", () => {
    const early = remove("l", "p1-1", 0, { at: [0, 1] });
    const appended = append("l", "p1-1", { at: [5, 6] });
    const verdict = checkLostWrites(history([early, appended], [finalList("l", [])]));
    expect(verdict.violations[0]!.kind).toBe("lost-append");
    expect(windowIds(verdict.violations[0]!.window)).toEqual([early.id, appended.id, "final"]);
  });

  it("catches an element resurrected after an acknowledged remove", () => {
    const appended = append("l", "p1-1", { at: [0, 1] });
    const removed = remove("l", "p1-1", 1, { at: [5, 6] });
    const verdict = checkLostWrites(history([appended, removed], [finalList("l", ["p1-1"])]));
    expect(verdict.violations[0]!.kind).toBe("resurrected");
    expect(windowIds(verdict.violations[0]!.window)).toEqual([appended.id, removed.id, "final"]);
  });
});
