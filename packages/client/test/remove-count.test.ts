import type { WriteReply__Output } from "@binring/core";
import { describe, expect, it } from "vitest";
import { mustRestamp, reportedReply } from "../src/remove-count.js";

function reply(ready: boolean, superseded = false, removed = "0"): WriteReply__Output {
  return { stamp: null, removed, ready, superseded, clock: "0", restamps: 0 };
}

describe("mustRestamp: an append a replica answered superseded", () => {
  it("is stamped again while the counting replica has not taken it (a remove got ahead of it)", () => {
    // Chain order is last backup first: the primary has not answered yet.
    const applied = new Map([["b2", reply(true, true)]]);
    expect(mustRestamp(["p", "b1", "b2"], applied)).toBe(true);
  });

  it("is stamped again when the counting replica itself answered superseded", () => {
    const applied = new Map([
      ["b2", reply(true)],
      ["b1", reply(true)],
      ["p", reply(true, true)],
    ]);
    expect(mustRestamp(["p", "b1", "b2"], applied)).toBe(true);
  });

  it("is not stamped again when the counting replica took it first: the remove counted it", () => {
    // The soak's case: the append reached b1 and b2 (and a primary that then died); the remove
    // got to the newcomer x first, but counts at b1, where the append already was.
    const applied = new Map([
      ["b2", reply(true)],
      ["b1", reply(true)],
      ["x", reply(true, true)],
    ]);
    expect(mustRestamp(["b1", "b2", "x"], applied)).toBe(false);
  });

  it("looks past a replica that is not ready: it is not the one whose count a remove reports", () => {
    const applied = new Map([
      ["b2", reply(true)],
      ["b1", reply(true)],
      ["p", reply(false, true)],
    ]);
    expect(mustRestamp(["p", "b1", "b2"], applied)).toBe(false);
  });
});

describe("reportedReply", () => {
  it("is the first ready replica's, in placement order, whatever order they answered in", () => {
    const applied = new Map([
      ["b2", reply(true, false, "2")],
      ["b1", reply(true, false, "1")],
      ["p", reply(false, false, "0")],
    ]);
    expect(reportedReply(["p", "b1", "b2"], applied)?.removed).toBe("1");
  });

  it("is the first reply when no replica was ready", () => {
    const applied = new Map([
      ["b1", reply(false, false, "1")],
      ["p", reply(false, false, "0")],
    ]);
    expect(reportedReply(["p", "b1"], applied)?.removed).toBe("0");
  });
});
