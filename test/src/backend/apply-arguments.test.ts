// An apply's entries reach lua/apply-entries.lua as one MessagePack array
// (apply-script.ts), which the script unpacks with Redis's cmsgpack. Strings
// take a different encoding at each size class (fixstr up to 31 bytes, str8,
// str16, str32): every class, multi-byte characters and the largest value a
// backend takes must arrive byte for byte, and a turn's applies and claims
// sharing one call must each get their own results.
import { type Entry, encodeStamp, LIMIT_CEILINGS } from "@binring/core";
import { expect, it } from "vitest";
import { engineOnRedis } from "../support/index.js";

const store = engineOnRedis({ readCacheBytes: 0 }, { appendOnly: false });

const WRITER = "0123456789abcdef";

function set(key: string, value: string, seq: number, bin = "packed"): Entry {
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

it("stores values of every MessagePack string size byte for byte", { timeout: 30_000 }, async () => {
  const entries = VALUES.map(([name, value], i) => set(name, value, i + 1));
  const outcomes = await store.engine.apply(entries);
  expect(outcomes).toHaveLength(entries.length);
  for (const entry of entries) {
    const stored = await store.engine.getString(entry.bin, entry.key);
    expect(stored?.value === entry.value, `${entry.key}: stored value differs`).toBe(true);
    expect(stored?.stamp).toEqual(entry.stamp);
  }
  // The key set holds the non-empty ones only: "" is a deletion.
  expect(await store.engine.keys("packed", {})).toEqual(
    VALUES.filter(([, value]) => value !== "")
      .map(([name]) => name)
      .sort(),
  );
});

it("keeps bins, keys and list values in any script", async () => {
  const bin = "корзина ✓";
  await store.engine.apply([set("ключ", "значение", 1, bin)]);
  expect((await store.engine.getString(bin, "ключ"))?.value).toBe("значение");
  const append: Entry = {
    bin,
    key: "列表",
    kind: "append",
    value: "值🙂",
    stamp: { clock: 2n, writer: WRITER, seq: 2 },
  };
  await store.engine.apply([append, { ...append, value: "other", stamp: { ...append.stamp, seq: 3 } }]);
  const [removal] = await store.engine.apply(
    [{ ...append, kind: "remove", stamp: { clock: 4n, writer: WRITER, seq: 4 } }],
    true,
  );
  expect(removal).toMatchObject({ removed: 1, countDecided: true });
  expect(await store.engine.getList(bin, "列表")).toEqual(["other"]);
});

it("gives each apply and claim of one turn its own results", async () => {
  const first = [set("t1", "one", 10), set("t2", "two", 11)];
  // Issued in one turn, so they share one script call.
  const [applied, claimed, unknown, stale] = await Promise.all([
    store.engine.apply(first),
    store.engine.claim(WRITER, 11),
    store.engine.claim("fedcba9876543210", 1),
    store.engine.apply([set("t1", "older", 5)]),
  ]);
  expect(applied).toHaveLength(2);
  expect(claimed && encodeStamp(claimed)).toBe(encodeStamp(first[1]!.stamp));
  expect(unknown).toBeNull();
  expect(stale).toHaveLength(1);
  expect((await store.engine.getString("packed", "t1"))?.value).toBe("one");
});
