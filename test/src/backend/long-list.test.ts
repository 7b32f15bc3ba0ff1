// A bin with a long list must still be copyable: repair scans it from one
// backend and applies it to another in batches. A 10-minute soak (seed 7) left a
// backend filling for good: its bins included a list of tens of thousands of
// appends, the scan sent that bin as one batch, and applying it passed the Lua
// script more arguments than a JavaScript call can spread ("Maximum call
// stack size exceeded"), on every retry.
import { type Entry, WHOLE_RING } from "@binring/core";
import { expect, it } from "vitest";
import { engineOnRedis } from "../support/index.js";

const APPENDS = 40_000;
const BATCH_SIZE = 2000;

const store = engineOnRedis({}, { appendOnly: false });

function append(i: number): Entry {
  return {
    bin: "long",
    key: "l",
    kind: "append",
    value: `v${i}`,
    stamp: { clock: BigInt(i + 1), writer: "0123456789abcdef", seq: i },
  };
}

it(`applies ${APPENDS} appends to one list in one request, and scans them back in batches of ${BATCH_SIZE}`, {
  timeout: 60_000,
}, async () => {
  const entries = Array.from({ length: APPENDS }, (_, i) => append(i));
  const outcomes = await store.engine.apply(entries);
  expect(outcomes).toHaveLength(APPENDS);
  expect(outcomes.every((outcome) => !outcome.superseded)).toBe(true);
  expect(await store.engine.getList("long", "l")).toEqual(entries.map((entry) => entry.value));

  const batches: number[] = [];
  let scanned = 0;
  for await (const batch of store.engine.scan(WHOLE_RING, BATCH_SIZE)) {
    batches.push(batch.length);
    scanned += batch.length;
  }
  expect(scanned).toBe(APPENDS);
  expect(Math.max(...batches)).toBe(BATCH_SIZE);
});
