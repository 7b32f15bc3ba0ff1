// What a store engine remembers for a retried write's claim (HAZARDS.md 20):
// the largest stamp it applied for each write (writer, seq), however the
// entry came (a coordinator's forward or a repair's copy), looked up after
// every apply requested before the claim, copies waiting behind client writes included, and nothing for an append it refused;
// and whether it holds an append, or held it until a remove deleted it (what
// decides whether a retried append a remove overtook is stamped again).
import type { StoreEngine } from "@binring/backend";
import { type Entry, type EntryKind, ListFullError, newWriterId, type Stamp } from "@binring/core";
import { expect, it } from "vitest";

function entry(kind: EntryKind, stamp: Stamp, value = "v"): Entry {
  return { bin: "claims", key: "k", kind, value, stamp };
}

export function itRemembersWritesForClaims(open: () => Promise<StoreEngine>): void {
  it("answers the largest stamp applied for a write, whatever order its entries came in", async () => {
    const engine = await open();
    const writer = newWriterId();
    await engine.apply([entry("append", { clock: 9n, writer, seq: 4 })]);
    await engine.apply([entry("append", { clock: 5n, writer, seq: 4 })]);
    await engine.apply([entry("set", { clock: 7n, writer, seq: 5 })]);
    await engine.apply([entry("set", { clock: 8n, writer: newWriterId(), seq: 5 })]);
    await engine.apply([entry("remove", { clock: 12n, writer, seq: 6 })]);
    expect(await engine.claim(writer, 4)).toEqual({ clock: 9n, writer, seq: 4 });
    // The set lost to another writer's: the record still says it was applied here.
    expect(await engine.claim(writer, 5)).toEqual({ clock: 7n, writer, seq: 5 });
    expect(await engine.claim(writer, 6)).toEqual({ clock: 12n, writer, seq: 6 });
    expect(await engine.claim(writer, 7)).toBeNull();
  });

  it("sees an apply requested just before it in the same turn", async () => {
    const engine = await open();
    const writer = newWriterId();
    const applied = engine.apply([entry("append", { clock: 3n, writer, seq: 1 })]);
    const claimed = engine.claim(writer, 1);
    await applied;
    expect(await claimed).toEqual({ clock: 3n, writer, seq: 1 });
  });

  it("sees every copy requested before it, however many wait to be applied", async () => {
    const engine = await open();
    const writer = newWriterId();
    const copies = Array.from({ length: 3000 }, (_, i) =>
      entry("set", { clock: 10n, writer, seq: 1000 + i }, `copy-${i}`),
    );
    copies.push(entry("set", { clock: 11n, writer, seq: 1 }));
    const copied = engine.applyCopies(copies);
    const claimed = engine.claim(writer, 1);
    await copied;
    expect(await claimed).toEqual({ clock: 11n, writer, seq: 1 });
  });

  it("records no append it refused for the list's limit", async () => {
    const engine = await open();
    const writer = newWriterId();
    const huge = "x".repeat(5 * 1024 * 1024);
    await engine.apply([entry("append", { clock: 1n, writer, seq: 1 }, huge)], false, true);
    const refused = engine.apply([entry("append", { clock: 2n, writer, seq: 2 }, huge)], false, true);
    await expect(refused).rejects.toBeInstanceOf(ListFullError);
    expect(await engine.claim(writer, 2)).toBeNull();
  });

  it("tells an append it holds, or held until a remove deleted it, from one it never held", async () => {
    const engine = await open();
    const writer = newWriterId();
    const [held, removedAfter, supersededFirst] = [1, 2, 3].map((seq) => ({ clock: 10n, writer, seq }));
    await engine.apply([entry("append", held!, "a"), entry("append", removedAfter!, "b")]);
    await engine.apply([entry("remove", { clock: 20n, writer: newWriterId(), seq: 1 }, "b")]);
    await engine.apply([entry("remove", { clock: 20n, writer: newWriterId(), seq: 2 }, "c")]);
    await engine.apply([entry("append", supersededFirst!, "c")]);
    const holds = (stamp: Stamp, value: string) => engine.holdsAppend("claims", "k", value, stamp);
    expect(await holds(held!, "a")).toBe(true);
    expect(await holds(removedAfter!, "b")).toBe(true);
    expect(await holds(supersededFirst!, "c")).toBe(false);
    expect(await holds({ ...held!, seq: 9 }, "a")).toBe(false);
  });
}
