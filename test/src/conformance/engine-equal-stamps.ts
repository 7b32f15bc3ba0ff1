// Two different entries with one stamp: a hostile or buggy caller may choose
// stamps, so a stamp does not name one entry. The store's order must still be
// total, or replicas that got the two in different orders disagree for good: a
// string key keeps its entry with the greatest (stamp, value bytes), whichever
// arrived first; list members are stamp ‖ value, so both appends stay, and an
// append and a remove of one value with one stamp leave the append whatever
// the order (a remove deletes only appends stamped below it).
import type { StoreEngine } from "@binring/backend";
import { type Entry, type EntryKind, newWriterId } from "@binring/core";
import { expect, it } from "vitest";
import { observableState } from "./engine-idempotency.js";

/** Pairs of values whose order in UTF-8 bytes (Redis's) the stores must agree on. */
const VALUE_PAIRS: [string, string][] = [
  ["x", "y"],
  ["", "x"], // a deletion and a value
  ["ab", "abc"], // one a prefix of the other
  ["a\u0000b", "a\u0000c"], // past a NUL byte
  // UTF-16 code units order these the other way round (0xD83D < 0xFF61); UTF-8 bytes: F0 > EF.
  ["\uFF61", "\u{1F600}"],
  ["é".repeat(5000), `${"é".repeat(4999)}ê`], // a long common prefix, then C3 A9 < C3 AA
];

function entry(kind: EntryKind, key: string, value: string, writer: string): Entry {
  return { bin: "alpha", key, kind, value, stamp: { clock: 7n, writer, seq: 3 } };
}

/** Applies the entries to two fresh stores, in order to one and reversed to the other, one call each. */
async function bothOrders(openEngine: () => Promise<StoreEngine>, entries: Entry[]) {
  const forward = await openEngine();
  for (const one of entries) await forward.apply([one]);
  const backward = await openEngine();
  for (const one of [...entries].reverse()) await backward.apply([one]);
  return [forward, backward] as const;
}

export function itOrdersEntriesWithOneStamp(openEngine: () => Promise<StoreEngine>): void {
  it.each(VALUE_PAIRS.map(([a, b], i) => [i, a, b] as const))(
    "two sets with one stamp leave the greater value whichever arrives first (pair %i)",
    async (_, lower, greater) => {
      const writer = newWriterId();
      const sets = [entry("set", "k1", lower, writer), entry("set", "k1", greater, writer)];
      const [forward, backward] = await bothOrders(openEngine, sets);
      // Read twice: the second read may come from the engine's read cache.
      for (const engine of [forward, backward, forward, backward]) {
        expect((await engine.getString("alpha", "k1"))?.value).toBe(greater);
      }
      expect(await observableState(backward)).toEqual(await observableState(forward));
      // Re-applied, in either order, neither moves.
      for (const engine of [forward, backward]) {
        await engine.apply([sets[1]!, sets[0]!]);
        await engine.apply(sets);
        expect((await engine.getString("alpha", "k1"))?.value).toBe(greater);
      }
    },
  );

  it("two appends with one stamp both stay, in value byte order, whichever arrives first", async () => {
    const writer = newWriterId();
    const appends = [entry("append", "k1", "\u{1F600}", writer), entry("append", "k1", "\uFF61", writer)];
    const [forward, backward] = await bothOrders(openEngine, appends);
    for (const engine of [forward, backward]) {
      expect(await engine.getList("alpha", "k1")).toEqual(["\uFF61", "\u{1F600}"]);
    }
    expect(await observableState(backward)).toEqual(await observableState(forward));
  });

  it("an append and a remove of one value with one stamp leave the append whichever arrives first", async () => {
    const writer = newWriterId();
    const entries = [entry("append", "k1", "x", writer), entry("remove", "k1", "x", writer)];
    const [forward, backward] = await bothOrders(openEngine, entries);
    for (const engine of [forward, backward]) expect(await engine.getList("alpha", "k1")).toEqual(["x"]);
    expect(await observableState(backward)).toEqual(await observableState(forward));
  });
}
