// A list's size is bounded at write time: a client append (limited) that
// would take a list past MAX_LIST_BYTES — the sum over its live elements of
// their value's UTF-8 bytes + 64 — is refused with RESOURCE_EXHAUSTED and
// changes nothing; a copy (repair, fill; not limited) always applies, so what
// one replica holds reaches the others. Entries of other requests, and the
// other entries of the refused one, apply all the same.
import type { StoreEngine } from "@binring/backend";
import { type Entry, type EntryKind, newWriterId, ResourceExhaustedError } from "@binring/core";
import { expect, it } from "vitest";

/** store-engine.ts MAX_LIST_BYTES and the bytes each element counts besides its value. */
const MAX_LIST_BYTES = 8 * 1024 * 1024;
const ELEMENT_OVERHEAD = 64;
/** Eight elements of this value length make a list of exactly MAX_LIST_BYTES. */
const EIGHTH = MAX_LIST_BYTES / 8 - ELEMENT_OVERHEAD;

function entries() {
  const writer = newWriterId();
  let seq = 0;
  return (key: string, kind: EntryKind, value: string): Entry => ({
    bin: "big",
    key,
    kind,
    value,
    stamp: { clock: 1n, writer, seq: seq++ },
  });
}

/** Seven elements of EIGHTH bytes (distinct values): one more of EIGHTH bytes fills the list exactly. */
async function nearlyFull(engine: StoreEngine, entry: ReturnType<typeof entries>, key: string) {
  const values = Array.from({ length: 7 }, (_, i) => String(i).padEnd(EIGHTH, "v"));
  await engine.apply(
    values.map((value) => entry(key, "append", value)),
    true,
    true,
  );
  return values;
}

async function refusal(promise: Promise<unknown>): Promise<ResourceExhaustedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResourceExhaustedError);
  return error as ResourceExhaustedError;
}

export function itLimitsListSizes(openEngine: () => Promise<StoreEngine>): void {
  it("takes an append that fills a list exactly to MAX_LIST_BYTES, and a retry of it", async () => {
    const engine = await openEngine();
    const entry = entries();
    const values = await nearlyFull(engine, entry, "l");
    const last = entry("l", "append", "z".repeat(EIGHTH));
    await engine.apply([last], true, true);
    expect(await engine.getList("big", "l")).toEqual([...values, last.value]);
    // Already there: a retry changes nothing, so it is not refused.
    expect(await engine.apply([last], true, true)).toEqual([
      { removed: 0, superseded: false, countDecided: false },
    ]);
  });

  it("refuses a client append one byte past the limit, counting UTF-8 bytes; a repair copy still applies", async () => {
    const engine = await openEngine();
    const entry = entries();
    const values = await nearlyFull(engine, entry, "l");
    // 2-byte characters: one byte over in UTF-8, far under in UTF-16 code units.
    const over = entry("l", "append", `${"é".repeat(EIGHTH / 2)}x`);
    const error = await refusal(engine.apply([over], true, true));
    expect(error.message).toBe(
      `list full: list "l" is ${MAX_LIST_BYTES - MAX_LIST_BYTES / 8} bytes; appending ${EIGHTH + 1 + ELEMENT_OVERHEAD} more bytes would pass the limit of 8388608 bytes (each element counts its value bytes + 64)`,
    );
    expect(await engine.getList("big", "l")).toEqual(values);

    // A repair or fill copy is not limited: what a replica holds reaches the others.
    await engine.apply([over]);
    expect(await engine.getList("big", "l")).toEqual([...values, over.value]);
    // Over the limit now: even the smallest client append is refused...
    await refusal(engine.apply([entry("l", "append", "")], true, true));
    // ...until a remove makes room.
    const removed = await engine.apply([entry("l", "remove", values[0]!)], true, true);
    expect(removed[0]?.removed).toBe(1);
    await engine.apply([entry("l", "append", "small")], true, true);
    expect(await engine.getList("big", "l")).toEqual([...values.slice(1), over.value, "small"]);
  });

  it("refuses only the request whose append passes the limit; its other entries and other requests apply", async () => {
    const engine = await openEngine();
    const entry = entries();
    const values = await nearlyFull(engine, entry, "full");
    const over = entry("full", "append", "o".repeat(EIGHTH + 1));
    const [refused, other] = await Promise.allSettled([
      // One request: an entry that fits, then the refused append.
      engine.apply([entry("small", "append", "a"), over], true, true),
      // Another request in the same turn (one Redis script call with the first).
      engine.apply([entry("small", "append", "b"), entry("full", "append", "")], true, true),
    ]);
    expect(refused.status).toBe("rejected");
    expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(ResourceExhaustedError);
    expect(other.status).toBe("fulfilled");
    expect(await engine.getList("big", "small")).toEqual(["a", "b"]);
    expect(await engine.getList("big", "full")).toEqual([...values, ""]);
  });
}
