// Idempotency of log entries, checked on a store engine: applying a batch of
// entries once in order, or shuffled and twice, gives the same state. This is
// what lets replicas converge and repairs be retried (HAZARDS.md 5).
import type { StoreEngine } from "@binring/backend";
import { type Entry, type EntryKind, newWriterId, WHOLE_RING } from "@binring/core";
import { expect, it } from "vitest";
import { seededRandom } from "../support/seeded-random.js";

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

export function randomEntries(seed: number, count: number): Entry[] {
  const next = seededRandom(seed);
  const writers = [newWriterId(), newWriterId(), newWriterId()];
  const kinds: EntryKind[] = ["set", "set", "append", "append", "append", "remove"];
  return Array.from({ length: count }, (_, seq) => ({
    bin: pick(next, ["", "alpha", "β|:"]),
    key: pick(next, ["k1", "k2", "", "k:3"]),
    kind: pick(next, kinds),
    value: pick(next, ["", "x", "y", "z"]),
    stamp: { clock: BigInt(Math.floor(next() * 50)), writer: pick(next, writers), seq },
  }));
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const next = seededRandom(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** Everything a reader can observe, plus the entries a repair would copy. */
export async function observableState(engine: StoreEngine) {
  const state: Record<string, unknown> = {};
  for (const bin of ["", "alpha", "β|:"]) {
    state[`${bin}/keys`] = await engine.keys(bin, {});
    state[`${bin}/listKeys`] = await engine.listKeys(bin, {});
    for (const key of ["k1", "k2", "", "k:3"]) {
      state[`${bin}/${key}/get`] = await engine.getString(bin, key);
      state[`${bin}/${key}/list`] = await engine.getList(bin, key);
    }
  }
  const scanned: string[] = [];
  for await (const batch of engine.scan(WHOLE_RING, 7)) {
    for (const entry of batch) {
      scanned.push(JSON.stringify({ ...entry, stamp: { ...entry.stamp, clock: String(entry.stamp.clock) } }));
    }
  }
  state.scan = scanned.sort();
  return state;
}

export function itAppliesEntriesIdempotently(openEngine: () => Promise<StoreEngine>): void {
  it.each([1, 2, 3, 4, 5])("re-applying a shuffled batch changes nothing (seed %i)", async (seed) => {
    const entries = randomEntries(seed, 300);
    const inOrder = await openEngine();
    await inOrder.apply(entries);
    const expected = await observableState(inOrder);

    const shuffledTwice = await openEngine();
    await shuffledTwice.apply(shuffled(entries, seed + 100));
    await shuffledTwice.apply(shuffled(entries, seed + 200));
    expect(await observableState(shuffledTwice)).toEqual(expected);

    // One at a time, reversed: a different interleaving of the same entries.
    const oneByOne = await openEngine();
    for (const entry of [...entries].reverse()) await oneByOne.apply([entry]);
    expect(await observableState(oneByOne)).toEqual(expected);
  });
}

/**
 * An append below a newer remove is superseded only if this replica never held
 * it: one the remove deleted here was counted by it, and a retry of that append
 * (its reply was lost) must not be stamped again (remove-count.ts).
 */
export function itTellsCountedAppendsFromSupersededOnes(openEngine: () => Promise<StoreEngine>): void {
  it("answers a retried append the remove counted here as applied, an unseen one as superseded", async () => {
    const engine = await openEngine();
    const writer = newWriterId();
    const entry = (kind: EntryKind, clock: bigint, seq: number): Entry => ({
      bin: "alpha",
      key: "k1",
      kind,
      value: "x",
      stamp: { clock, writer, seq },
    });
    const counted = entry("append", 5n, 1);
    expect((await engine.apply([counted]))[0]?.superseded).toBe(false);
    expect((await engine.apply([entry("remove", 9n, 2)]))[0]?.removed).toBe(1);
    expect((await engine.apply([counted]))[0]?.superseded).toBe(false);
    expect((await engine.apply([entry("append", 6n, 3)]))[0]?.superseded).toBe(true);
    expect(await engine.getList("alpha", "k1")).toEqual([]);
  });
}

/**
 * A remove's count may be reported only where its own writer decided it on a
 * ready backend. One that a repair copy brought first was counted against
 * whatever the copy had brought so far (the soak saw removes report 0 for
 * appends acknowledged seconds before): it says so, however often re-applied.
 */
export function itTellsWhoDecidedARemovesCount(openEngine: () => Promise<StoreEngine>): void {
  it("reports a remove's count as decided only when its writer applied it first", async () => {
    const engine = await openEngine();
    const writer = newWriterId();
    const entry = (key: string, kind: EntryKind, clock: bigint, seq: number): Entry => ({
      bin: "alpha",
      key,
      kind,
      value: "x",
      stamp: { clock, writer, seq },
    });
    await engine.apply([entry("byWriter", "append", 1n, 1), entry("byCopy", "append", 1n, 2)]);
    const byWriter = entry("byWriter", "remove", 5n, 3);
    const byCopy = entry("byCopy", "remove", 5n, 4);
    const decided = { removed: 1, superseded: false, countDecided: true };
    const copied = { removed: 1, superseded: false, countDecided: false };
    expect(await engine.apply([byWriter], true)).toEqual([decided]);
    expect(await engine.apply([byCopy])).toEqual([copied]);
    // Its writer's retry, or the writer arriving after the copy: the first decision stands.
    expect(await engine.apply([byWriter], true)).toEqual([decided]);
    expect(await engine.apply([byCopy], true)).toEqual([copied]);
    // A remove this backend never applied, below a later one's tombstone: nothing decided here.
    await engine.apply([entry("byWriter", "remove", 9n, 5)], true);
    expect(await engine.apply([entry("byWriter", "remove", 7n, 6)], true)).toEqual([
      { removed: 0, superseded: false, countDecided: false },
    ]);
  });
}
