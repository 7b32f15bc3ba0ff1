// A call to lua/apply-entries.lua passes a few entries as arguments and many
// as one MessagePack array, which the script unpacks with Redis's cmsgpack
// (apply-script.ts). Strings take a different encoding at each MessagePack size
// class (fixstr up to 31 bytes, str8, str16, str32): every class, multi-byte
// characters and the largest value a backend takes must arrive byte for byte
// either way, and a turn's applies and claims sharing one call must each get
// their own results.
import { PACKED_FROM_ENTRIES } from "@binring/backend";
import { type Entry, encodeStamp, LIMIT_CEILINGS } from "@binring/core";
import { describe, expect, it } from "vitest";
import { engineOnRedis } from "../support/index.js";

const store = engineOnRedis({ readCacheBytes: 0 }, { appendOnly: false });

const WRITER = "0123456789abcdef";

function set(bin: string, key: string, value: string, seq: number): Entry {
  return { bin, key, kind: "set", value, stamp: { clock: BigInt(seq), writer: WRITER, seq } };
}

/** Byte lengths either side of each MessagePack string size class, and multi-byte text. */
const VALUES: [string, string][] = [
  ["empty", ""],
  ["31 bytes", "a".repeat(31)],
  ["32 bytes", "b".repeat(32)],
  ["255 bytes", "c".repeat(255)],
  ["256 bytes", "d".repeat(256)],
  ["65,535 bytes", "e".repeat(65_535)],
  ["65,536 bytes", "f".repeat(65_536)],
  ["two-byte characters", "é".repeat(200)],
  ["four-byte characters", "🙂".repeat(70)],
  ["the largest value", "g".repeat(LIMIT_CEILINGS.maxValueBytes)],
];

/** Sets that take a call of `entries` past PACKED_FROM_ENTRIES. */
function filler(bin: string, entries: readonly Entry[], seq: number): Entry[] {
  const missing = Math.max(0, PACKED_FROM_ENTRIES - entries.length);
  return Array.from({ length: missing }, (_, i) => set(bin, `filler ${i}`, "x", seq + i));
}

async function expectStored(entries: readonly Entry[]): Promise<void> {
  for (const entry of entries) {
    const stored = await store.engine.getString(entry.bin, entry.key);
    expect(stored?.value === entry.value, `${entry.bin}/${entry.key}: stored value differs`).toBe(true);
    expect(stored?.stamp).toEqual(entry.stamp);
  }
}

describe.each([
  ["one entry per call, as arguments", "single"],
  ["every value in one packed call", "packed"],
])("%s", (_, form) => {
  it("stores values of every MessagePack string size byte for byte", { timeout: 30_000 }, async () => {
    const entries = VALUES.map(([name, value], i) => set(form, name, value, i + 1));
    if (form === "single") for (const entry of entries) await store.engine.apply([entry]);
    else await store.engine.apply([...entries, ...filler(form, entries, 100)]);
    await expectStored(entries);
    // The key set holds the non-empty ones only: "" is a deletion.
    const keys = await store.engine.keys(form, {});
    expect(keys.filter((key) => !key.startsWith("filler"))).toEqual(
      VALUES.filter(([, value]) => value !== "")
        .map(([name]) => name)
        .sort(),
    );
  });

  it("keeps bins, keys and list values in any script", async () => {
    const bin = `корзина ✓ ${form}`;
    const pad = (entries: Entry[]) =>
      form === "single" ? entries : [...entries, ...filler(bin, entries, 100)];
    await store.engine.apply(pad([set(bin, "ключ", "значение", 1)]));
    expect((await store.engine.getString(bin, "ключ"))?.value).toBe("значение");
    const append: Entry = {
      bin,
      key: "列表",
      kind: "append",
      value: "值🙂",
      stamp: { clock: 2n, writer: WRITER, seq: 2 },
    };
    await store.engine.apply(
      pad([append, { ...append, value: "other", stamp: { ...append.stamp, seq: 3 } }]),
    );
    const [removal] = await store.engine.apply(
      pad([{ ...append, kind: "remove", stamp: { clock: 4n, writer: WRITER, seq: 4 } }]),
      true,
    );
    expect(removal).toMatchObject({ removed: 1, countDecided: true });
    expect(await store.engine.getList(bin, "列表")).toEqual(["other"]);
  });

  it("gives each apply and claim of one turn its own results", async () => {
    const bin = `turn ${form}`;
    const first = [set(bin, "t1", "one", 10), set(bin, "t2", "two", 11)];
    const more = form === "single" ? [] : filler(bin, first, 100);
    // Issued in one turn, so they share one script call.
    const [applied, claimed, unknown, stale, extra] = await Promise.all([
      store.engine.apply(first),
      store.engine.claim(WRITER, 11),
      store.engine.claim("fedcba9876543210", 1),
      store.engine.apply([set(bin, "t1", "older", 5)]),
      more.length > 0 ? store.engine.apply(more) : Promise.resolve([]),
    ]);
    expect(applied).toHaveLength(2);
    expect(claimed && encodeStamp(claimed)).toBe(encodeStamp(first[1]!.stamp));
    expect(unknown).toBeNull();
    expect(stale).toHaveLength(1);
    expect(extra).toHaveLength(more.length);
    expect((await store.engine.getString(bin, "t1"))?.value).toBe("one");
    await expectStored(more);
  });
});
