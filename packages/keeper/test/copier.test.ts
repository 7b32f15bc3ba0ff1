// A copy task applies the union of its sources to the target, each entry once
// however many sources hold it (copier.ts), and never takes two different
// entries for one. In process, with fake backends.
import {
  type Entry,
  type EntryFrame,
  LIMIT_CEILINGS,
  MESSAGE_BUDGET_BYTES,
  NotReadyError,
  type RingRange,
  WHOLE_RING,
} from "@binring/core";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import {
  type CopyProgress,
  copyTask,
  PACED_BATCH_SIZE,
  scanIdleTimeoutMs,
  sourceRate,
} from "../src/copier.js";
import type { EntryPort } from "../src/keeper-ports.js";
import { entriesOf, framesOf } from "./support/entry-frames.js";

class FakeStore implements EntryPort {
  readonly applied: Entry[] = [];
  /** The next apply fails. */
  failNextApply = false;
  /** The rate (0: unpaced), batch size and idle timeout each Scan asked for. */
  readonly scans: { rate: number; batchSize: number; idleTimeoutMs: number }[] = [];
  /** Whether it serves ready-only reads: a scan that requires it is refused otherwise. */
  ready = true;
  /** Loses readiness after its first batch: a scan that requires it fails at its end. */
  losesReadinessMidScan = false;

  constructor(readonly entries: Entry[] = []) {}

  async *scan(_ranges: readonly RingRange[], batchSize: number): AsyncIterable<Entry[]> {
    for (let i = 0; i < this.entries.length; i += batchSize) yield this.entries.slice(i, i + batchSize);
  }

  async apply(entries: readonly Entry[]): Promise<void> {
    if (this.failNextApply) {
      this.failNextApply = false;
      throw new Error("apply refused");
    }
    this.applied.push(...entries);
  }

  async *scanFrames(
    ranges: readonly RingRange[],
    batchSize: number,
    idleTimeoutMs: number,
    bytesPerSecond = 0,
    requireReady = false,
  ): AsyncIterable<EntryFrame[]> {
    this.scans.push({ rate: bytesPerSecond, batchSize, idleTimeoutMs });
    if (requireReady && !this.ready) throw new NotReadyError("not ready");
    for await (const batch of this.scan(ranges, batchSize)) {
      yield framesOf(batch);
      if (this.losesReadinessMidScan) this.ready = false;
    }
    if (requireReady && !this.ready) throw new NotReadyError("not ready throughout the scan");
  }

  applyFrames(frames: readonly EntryFrame[]): Promise<void> {
    return this.apply(entriesOf(frames));
  }
}

function entry(key: string, fields: Partial<Entry> = {}): Entry {
  return {
    bin: "b",
    key,
    kind: "set",
    value: "v",
    stamp: { clock: 7n, writer: "0123456789abcdef", seq: 1 },
    ...fields,
  };
}

async function copy(
  stores: Record<string, FakeStore>,
  sources: string[],
  readRate?: number,
  batchSize = 2,
  firstHolder?: string,
  pace?: (bytes: number) => Promise<void>,
) {
  const progress: CopyProgress = {
    entriesCopied: 0,
    bytesCopied: 0,
    tasksDone: 0,
    tasksTotal: 1,
    duplicatesSkipped: 0,
  };
  const complete = await copyTask(
    {
      target: "target",
      sources,
      ...(firstHolder === undefined ? {} : { firstHolder }),
      ranges: [...WHOLE_RING],
    },
    {
      channel: (address) => stores[address]!,
      epoch: () => 1n,
      batchSize,
      logger: pino({ level: "silent" }),
      progress,
      readRate,
      ...(pace === undefined ? {} : { pace }),
    },
  );
  return { complete, progress };
}

const keysOf = (entries: readonly Entry[]) => entries.map((e) => `${e.bin}/${e.key}=${e.value}`).sort();

describe("a copy task", () => {
  it("applies the union of its sources, each entry once", async () => {
    const [e1, e2, e3, e4] = ["k1", "k2", "k3", "k4"].map((key) => entry(key));
    const stores = {
      a: new FakeStore([e1!, e2!, e3!]),
      b: new FakeStore([e1!, e2!, e4!]),
      c: new FakeStore([e2!, e3!, e4!]),
      target: new FakeStore(),
    };
    const { complete, progress } = await copy(stores, ["a", "b", "c"]);
    expect(complete).toBe(true);
    expect(keysOf(stores.target.applied)).toEqual(["b/k1=v", "b/k2=v", "b/k3=v", "b/k4=v"]);
    expect(progress.entriesCopied).toBe(4);
    expect(progress.duplicatesSkipped).toBe(5);
  });

  it("paces what it applies to the target, not the duplicates its sources send", async () => {
    const entries = ["k1", "k2", "k3", "k4"].map((key) => entry(key));
    const stores = {
      a: new FakeStore(entries),
      b: new FakeStore(entries),
      c: new FakeStore(entries),
      target: new FakeStore(),
    };
    let paced = 0;
    const { progress } = await copy(stores, ["a", "b", "c"], 1000, 2, undefined, async (bytes) => {
      paced += bytes;
    });
    expect(progress.duplicatesSkipped).toBe(8);
    expect(paced).toBe(progress.bytesCopied);
  });

  it("applies different entries that share a stamp, or whose names run together alike", async () => {
    const stores = {
      a: new FakeStore([entry("b\0c", { bin: "a" }), entry("k", { value: "one" })]),
      b: new FakeStore([entry("c", { bin: "a\0b" }), entry("k", { value: "two" })]),
      target: new FakeStore(),
    };
    expect((await copy(stores, ["a", "b"])).complete).toBe(true);
    expect(stores.target.applied).toHaveLength(4);
  });

  it("applies a large value from every source (it is not remembered)", async () => {
    const large = entry("big", { value: "x".repeat(1000) });
    const stores = { a: new FakeStore([large]), b: new FakeStore([large]), target: new FakeStore() };
    const { progress } = await copy(stores, ["a", "b"]);
    expect(stores.target.applied).toHaveLength(2);
    expect(progress.duplicatesSkipped).toBe(0);
  });

  it("is not complete when an apply fails, though another source skipped what it carried", async () => {
    const shared = entry("k1");
    const stores = { a: new FakeStore([shared]), b: new FakeStore([shared]), target: new FakeStore() };
    stores.target.failNextApply = true;
    expect((await copy(stores, ["a", "b"])).complete).toBe(false);
    expect(stores.target.applied).toHaveLength(0);
    // The retry is a new task: it remembers nothing of the failed one.
    expect((await copy(stores, ["a", "b"])).complete).toBe(true);
    expect(keysOf(stores.target.applied)).toEqual(["b/k1=v"]);
  });

  it("asks each source for the read rate in small batches, and an unpaced copy for neither", async () => {
    const sources = ["a", "b", "c"] as const;
    const stores = () => ({
      a: new FakeStore(),
      b: new FakeStore(),
      c: new FakeStore(),
      target: new FakeStore(),
    });
    const paced = stores();
    await copy(paced, [...sources], 3001, 2000);
    expect(sources.map((s) => paced[s].scans)).toEqual(
      sources.map(() => [
        { rate: 3001, batchSize: PACED_BATCH_SIZE, idleTimeoutMs: scanIdleTimeoutMs(3001) },
      ]),
    );
    const unpaced = stores();
    await copy(unpaced, [...sources], undefined, 2000);
    expect(sources.map((s) => unpaced[s].scans)).toEqual(
      sources.map(() => [{ rate: 0, batchSize: 2000, idleTimeoutMs: 60_000 }]),
    );
    // Past what a Scan request carries it is as good as unpaced; never below one byte a second.
    expect(sourceRate(2 ** 40)).toBe(2 ** 32 - 1);
    expect(sourceRate(1)).toBe(1);
  });

  describe("with a first holder", () => {
    // b alone holds k9: an entry of a write whose outcome nobody learned, on a later replica only.
    const holders = () => {
      const [k1, k2, k9] = ["k1", "k2", "k9"].map((key) => entry(key));
      return {
        a: new FakeStore([k1!, k2!]),
        b: new FakeStore([k1!, k2!, k9!]),
        target: new FakeStore(),
      };
    };

    it("reads that one alone while it is ready, at the rate", async () => {
      const stores = holders();
      const { complete } = await copy(stores, ["a", "b"], 2000, 2000, "a");
      expect(complete).toBe(true);
      expect(keysOf(stores.target.applied)).toEqual(["b/k1=v", "b/k2=v"]);
      expect(stores.a.scans).toEqual([
        { rate: 2000, batchSize: PACED_BATCH_SIZE, idleTimeoutMs: scanIdleTimeoutMs(2000) },
      ]);
      expect(stores.b.scans).toEqual([]);
    });

    it("reads every source when it is not ready", async () => {
      const stores = holders();
      stores.a.ready = false;
      expect((await copy(stores, ["a", "b"], undefined, 2, "a")).complete).toBe(true);
      expect(keysOf(stores.target.applied)).toEqual(["b/k1=v", "b/k2=v", "b/k9=v"]);
    });

    it("reads every source when it stops being ready before its scan ends", async () => {
      const stores = holders();
      stores.a.losesReadinessMidScan = true;
      expect((await copy(stores, ["a", "b"], undefined, 1, "a")).complete).toBe(true);
      expect(keysOf(stores.target.applied)).toContain("b/k9=v");
      expect(stores.b.scans).toHaveLength(1);
    });
  });

  it("gives a source a minute of silence, more where its largest message takes longer at its rate", () => {
    expect(scanIdleTimeoutMs(0)).toBe(60_000);
    expect(scanIdleTimeoutMs(512 * 1024)).toBe(60_000);
    // The budget plus one largest value, twice over, at 1000 B/s.
    expect(scanIdleTimeoutMs(1000)).toBe(2 * (MESSAGE_BUDGET_BYTES + LIMIT_CEILINGS.maxValueBytes));
    // At 1 B/s that is past what a timer can wait (it would fire at once): the longest a timer waits.
    expect(scanIdleTimeoutMs(1)).toBe(2 ** 31 - 1);
  });
});
