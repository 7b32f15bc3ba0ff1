// What a store engine counts for status (`stats`): string keys with a value
// and lists with a live append, as entries set, delete, append and remove
// them in any order, and as a drop takes bins away.
import type { StoreEngine } from "@binring/backend";
import { type EntryKind, newWriterId, WHOLE_RING } from "@binring/core";
import { expect, it } from "vitest";

export function itCountsKeysAndLists(open: () => Promise<StoreEngine>): void {
  it("counts keys with a value and lists with a live append, whatever order entries arrive in", async () => {
    const engine = await open();
    const writer = newWriterId();
    let seq = 0;
    const apply = (bin: string, key: string, kind: EntryKind, value: string, clock: number) =>
      engine.apply([{ bin, key, kind, value, stamp: { clock: BigInt(clock), writer, seq: seq++ } }]);
    const counts = async () => {
      const { keys, lists } = await engine.stats();
      return { keys, lists };
    };

    await apply("a", "k1", "set", "v", 1);
    await apply("a", "k1", "set", "w", 2);
    await apply("a", "k2", "set", "", 1);
    await apply("b", "k1", "set", "v", 1);
    expect(await counts()).toEqual({ keys: 2, lists: 0 });
    await apply("a", "k1", "set", "", 3);
    await apply("a", "k1", "set", "late", 2);
    await apply("a", "k1", "set", "", 3);
    expect(await counts()).toEqual({ keys: 1, lists: 0 });

    await apply("a", "l", "append", "x", 1);
    await apply("a", "l", "append", "y", 2);
    await apply("b", "l", "append", "x", 1);
    expect(await counts()).toEqual({ keys: 1, lists: 2 });
    await apply("a", "l", "remove", "x", 3);
    expect(await counts()).toEqual({ keys: 1, lists: 2 });
    await apply("a", "l", "remove", "y", 3);
    await apply("a", "l", "append", "x", 2);
    expect(await counts()).toEqual({ keys: 1, lists: 1 });
    await apply("a", "l", "append", "x", 4);
    expect(await counts()).toEqual({ keys: 1, lists: 2 });

    await engine.drop(WHOLE_RING);
    expect(await engine.stats()).toEqual({ bins: 0, keys: 0, lists: 0 });
    await apply("a", "k1", "set", "again", 5);
    expect(await engine.stats()).toEqual({ bins: 1, keys: 1, lists: 0 });
  });
}
