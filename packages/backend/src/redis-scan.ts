// Reading the entries of a stretch of the ring from Redis, for a repair or
// fill copying from this backend (Scan): the bins in the ranges by the
// `bins` index, then every entry of each bin, tombstones included.
import {
  decodeStamp,
  ENCODED_STAMP_LENGTH,
  type Entry,
  MESSAGE_BUDGET_BYTES,
  type RingRange,
  unwrappedIntervals,
} from "@binring/core";
import { binTag } from "./apply-script.js";
import type { RedisConnection } from "./redis-connection.js";
import type { TurnPipeline } from "./turn-pipeline.js";

/** Most bins read (Scan) or deleted (Drop, one script call each) per round of pipelined calls. */
export const BINS_PER_ROUND = 64;

/** Every entry of the bins in the ranges, in batches of at most batchSize entries and about MESSAGE_BUDGET_BYTES. */
export async function* scanEntries(
  connection: RedisConnection,
  pipeline: TurnPipeline,
  ranges: readonly RingRange[],
  batchSize: number,
): AsyncIterable<Entry[]> {
  const bins = await binsIn(connection, pipeline, ranges);
  let batch: Entry[] = [];
  let bytes = 0;
  let binsRead = 0;
  let entriesRead = 0;
  for (let i = 0; i < bins.length; ) {
    // About a batch's worth of entries per round, judged by the bins read so far: a round is read,
    // decoded and framed in one go, holding Redis and this process from clients' calls meanwhile.
    const roundBins = bins.slice(i, i + binsForRound(binsRead, entriesRead, batchSize));
    i += roundBins.length;
    const entriesPerBin = await Promise.all(roundBins.map((bin) => binEntries(connection, pipeline, bin)));
    binsRead += roundBins.length;
    for (const entries of entriesPerBin) entriesRead += entries.length;
    // Entry by entry, so that a bin with a long list still travels in batches of batchSize and of about
    // MESSAGE_BUDGET_BYTES (values may be megabytes each).
    for (const entries of entriesPerBin) {
      for (const entry of entries) {
        batch.push(entry);
        bytes += entry.value.length + entry.key.length;
        if (batch.length >= batchSize || bytes >= MESSAGE_BUDGET_BYTES) {
          yield batch;
          batch = [];
          bytes = 0;
        }
      }
    }
  }
  if (batch.length > 0) yield batch;
}

/** Bins to read next: one to start with, then as many as hold about `batchSize` entries at the rate so far. */
export function binsForRound(binsRead: number, entriesRead: number, batchSize: number): number {
  if (binsRead === 0) return 1;
  if (entriesRead === 0) return BINS_PER_ROUND;
  return Math.max(1, Math.min(BINS_PER_ROUND, Math.floor((batchSize * binsRead) / entriesRead)));
}

async function binEntries(
  connection: RedisConnection,
  pipeline: TurnPipeline,
  bin: string,
): Promise<Entry[]> {
  const tag = binTag(bin);
  const [stringKeys, listKeys] = await connection.call(() =>
    Promise.all([
      pipeline.send<string[]>("smembers", `ka:${tag}`),
      pipeline.send<string[]>("smembers", `la:${tag}`),
    ]),
  );
  const entries: Entry[] = [];
  const strings = await connection.call(() =>
    Promise.all(stringKeys.map((key) => pipeline.send<string | null>("get", `s:${tag}${key}`))),
  );
  stringKeys.forEach((key, i) => {
    const stored = strings[i];
    if (stored == null) return;
    const stamp = decodeStamp(stored.slice(0, ENCODED_STAMP_LENGTH));
    entries.push({ bin, key, kind: "set", value: stored.slice(ENCODED_STAMP_LENGTH), stamp });
  });
  const lists = await connection.call(() =>
    Promise.all(
      listKeys.map((key) =>
        Promise.all([
          pipeline.send<string[]>("zrange", `l:${tag}${key}`, 0, -1),
          pipeline.send<Record<string, string>>("hgetall", `lt:${tag}${key}`),
        ]),
      ),
    ),
  );
  listKeys.forEach((key, i) => {
    const [appends, tombstones] = lists[i]!;
    for (const member of appends) {
      const stamp = decodeStamp(member.slice(0, ENCODED_STAMP_LENGTH));
      entries.push({ bin, key, kind: "append", value: member.slice(ENCODED_STAMP_LENGTH), stamp });
    }
    for (const [value, stamp] of Object.entries(tombstones)) {
      entries.push({ bin, key, kind: "remove", value, stamp: decodeStamp(stamp) });
    }
  });
  return entries;
}

/** The bins whose ring point is in one of the ranges. */
export async function binsIn(
  connection: RedisConnection,
  pipeline: TurnPipeline,
  ranges: readonly RingRange[],
): Promise<string[]> {
  const found = await connection.call(() =>
    Promise.all(
      unwrappedIntervals(ranges).map(([from, to]) =>
        pipeline.send<string[]>("zrangebyscore", "bins", from, `(${to}`),
      ),
    ),
  );
  return [...new Set(found.flat())];
}
