// Scan (what repairs and fills copy from) returns every entry of the ranges
// exactly once, in batches no larger than asked, whatever the bins hold: many
// small bins, one bin larger than a batch, lists and tombstones among them.
import type { StoreEngine } from "@binring/backend";
import { type Entry, newWriterId, WHOLE_RING } from "@binring/core";
import { expect, it } from "vitest";

function id(entry: Entry): string {
  return JSON.stringify([
    entry.kind,
    entry.bin,
    entry.key,
    entry.value,
    String(entry.stamp.clock),
    entry.stamp.seq,
  ]);
}

export function itScansEveryEntryOnce(open: () => Promise<StoreEngine>): void {
  it("scans every entry once, in batches of at most the batch size, over bins of every size", async () => {
    const engine = await open();
    const writer = newWriterId();
    let seq = 0;
    const entries: Entry[] = [];
    const add = (bin: string, key: string, kind: Entry["kind"], value: string) =>
      entries.push({ bin, key, kind, value, stamp: { clock: 1n, writer, seq: seq++ } });
    // Bins of 1 to 40 entries, and one of 500: the rounds' size follows what the bins read so far held.
    for (let b = 0; b < 120; b++) {
      for (let k = 0; k <= b % 40; k++) add(`bin-${b}`, `k${k}`, "set", `v${b}.${k}`);
      if (b % 7 === 0) add(`bin-${b}`, "list", "append", "x");
      if (b % 11 === 0) add(`bin-${b}`, "gone", "set", "");
    }
    for (let k = 0; k < 500; k++) add("big", `k${k}`, "set", "v");
    await engine.apply(entries);
    const expected = entries.map(id).sort();

    for (const batchSize of [1, 7, 64, 100_000]) {
      const scanned: string[] = [];
      for await (const batch of engine.scan(WHOLE_RING, batchSize)) {
        expect(batch.length).toBeGreaterThan(0);
        expect(batch.length).toBeLessThanOrEqual(batchSize);
        scanned.push(...batch.map(id));
      }
      expect(scanned.sort(), `batch size ${batchSize}`).toEqual(expected);
    }
  });
}
