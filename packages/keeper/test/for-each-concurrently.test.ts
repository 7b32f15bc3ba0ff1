import { describe, expect, it } from "vitest";
import { forEachConcurrently } from "../src/for-each-concurrently.js";

/** A piece of work that finishes when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("forEachConcurrently", () => {
  it("runs at most the limit at once, starts items in order, and ends when all have", async () => {
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    let finished = false;
    const all = forEachConcurrently([0, 1, 2, 3, 4], 2, async (item) => {
      started.push(item);
      most = Math.max(most, ++running);
      await gates[item]!.opened;
      running--;
    }).then(() => {
      finished = true;
    });
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    await all;
    expect(finished).toBe(true);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it("does nothing for no items, and runs fewer workers than the limit when items are fewer", async () => {
    await forEachConcurrently([], 4, () => Promise.reject(new Error("never called")));
    const seen: string[] = [];
    await forEachConcurrently(["a"], 4, async (item) => {
      seen.push(item);
    });
    expect(seen).toEqual(["a"]);
  });
});
