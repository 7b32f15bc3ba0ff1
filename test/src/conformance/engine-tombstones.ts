// Tombstones older than the TTL are dropped by the sweep, on a store engine:
// deleted string keys and list values' removes go, with the bins they
// emptied, and nothing a reader sees changes (HAZARDS.md 10). Names and keys
// are chosen to look like the Redis engine's own encoding ("12:ab", "3:x").
import type { StoreEngine } from "@binring/backend";
import { type Entry, type EntryKind, newWriterId, WHOLE_RING } from "@binring/core";
import { expect, it } from "vitest";

const BINS = ["", "β|:", "12:ab"];
const KEYS = ["k", "", "3:x", "a:b:c"];

function entries() {
  const writer = newWriterId();
  let seq = 0;
  return (bin: string, key: string, kind: EntryKind, value: string, clock: number): Entry => ({
    bin,
    key,
    kind,
    value,
    stamp: { clock: BigInt(clock), writer, seq: seq++ },
  });
}

async function scanAll(engine: StoreEngine): Promise<Entry[]> {
  const found: Entry[] = [];
  for await (const batch of engine.scan(WHOLE_RING, 1000)) found.push(...batch);
  return found;
}

/** Sweeps with a TTL of 0 (everything stored so far is old enough), a few at a time. */
async function sweepAll(engine: StoreEngine): Promise<number> {
  let dropped = 0;
  for (;;) {
    const sweep = await engine.sweepTombstones(0, 7);
    dropped += sweep.dropped;
    if (sweep.examined < 7) return dropped;
  }
}

export function itSweepsOldTombstones(open: () => Promise<StoreEngine>): void {
  it("drops deletions and removes older than the TTL, and the bins they emptied", async () => {
    const engine = await open();
    const entry = entries();
    const applied: Entry[] = [];
    for (const bin of BINS) {
      for (const key of KEYS) {
        applied.push(entry(bin, key, "set", "v", 1), entry(bin, key, "set", "", 2));
        applied.push(entry(bin, key, "append", "x", 1), entry(bin, key, "remove", "x", 2));
        applied.push(entry(bin, key, "append", "1:y", 3), entry(bin, key, "remove", "1:y", 4));
      }
    }
    const live = [entry("live", "k", "set", "v", 5), entry("live", "l", "append", "stays", 5)];
    applied.push(...live, entry("live", "l", "remove", "gone", 6));
    await engine.apply(applied);
    const tombstones = BINS.length * KEYS.length * 3 + 1;
    expect(await scanAll(engine)).toHaveLength(live.length + tombstones);

    expect(await engine.sweepTombstones(3_600_000, 100)).toEqual({ examined: 0, dropped: 0 });
    expect(await sweepAll(engine)).toBe(tombstones);

    const left = await scanAll(engine);
    expect(left.map(({ bin, key, kind, value }) => [bin, key, kind, value]).sort()).toEqual([
      ["live", "k", "set", "v"],
      ["live", "l", "append", "stays"],
    ]);
    expect((await engine.stats()).bins).toBe(1);
    for (const bin of BINS) {
      for (const key of KEYS) {
        expect(await engine.getString(bin, key)).toBeNull();
        expect(await engine.getList(bin, key)).toEqual([]);
      }
      expect(await engine.keys(bin, {})).toEqual([]);
      expect(await engine.listKeys(bin, {})).toEqual([]);
    }
    expect((await engine.getString("live", "k"))?.value).toBe("v");
    expect(await engine.getList("live", "l")).toEqual(["stays"]);
    expect(await sweepAll(engine)).toBe(0);
  });

  it("keeps what replaced a tombstone: a later value, a later append of the removed value", async () => {
    const engine = await open();
    const entry = entries();
    await engine.apply([entry("b", "k", "set", "old", 1), entry("b", "k", "set", "", 2)]);
    await engine.apply([entry("b", "k", "set", "back", 3)]);
    await engine.apply([entry("b", "l", "append", "x", 1), entry("b", "l", "remove", "x", 2)]);
    await engine.apply([entry("b", "l", "append", "x", 3)]);
    // The string's deletion was overwritten: nothing to drop there. The list's tombstone goes.
    expect(await sweepAll(engine)).toBe(1);
    expect((await engine.getString("b", "k"))?.value).toBe("back");
    expect(await engine.getList("b", "l")).toEqual(["x"]);
    expect(await engine.keys("b", {})).toEqual(["k"]);
    expect(await engine.listKeys("b", {})).toEqual(["l"]);
  });

  it("keeps a tombstone younger than the TTL: an older entry arriving late stays deleted", async () => {
    const engine = await open();
    const entry = entries();
    await engine.apply([entry("b", "k", "set", "", 2), entry("b", "l", "remove", "x", 2)]);
    expect(await engine.sweepTombstones(3_600_000, 100)).toEqual({ examined: 0, dropped: 0 });
    await engine.apply([entry("b", "k", "set", "late", 1), entry("b", "l", "append", "x", 1)]);
    expect(await engine.getString("b", "k")).toMatchObject({ value: "" });
    expect(await engine.getList("b", "l")).toEqual([]);
  });
}
