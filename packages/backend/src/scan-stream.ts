// Serving a Scan: every entry of the bins in a stretch of the ring, for a
// keeper copying it (HAZARDS.md 5), in messages of about MESSAGE_BUDGET_BYTES,
// read from the store no faster than the caller's rate (scan-pace.ts). Replies
// are encoded here, entry by entry (core's encodeEntryBatch), not through the
// wire objects the generated serializer takes.
import { setTimeout as sleep } from "node:timers/promises";
import {
  type Entry,
  encodeEntryBatch,
  MAX_SCAN_BATCH,
  MESSAGE_BUDGET_BYTES,
  type RingRange,
  type ScanRequest__Output,
} from "@binring/core";
import type * as grpc from "@grpc/grpc-js";
import type { Logger } from "pino";
import { byBytes, entryBytes } from "./message-sizes.js";
import { ScanPace } from "./scan-pace.js";

/** Entries per streamed Scan message unless the caller asks otherwise (and never past MESSAGE_BUDGET_BYTES). */
const DEFAULT_SCAN_BATCH = 500;

/** The control service with Scan's replies sent as serveScan encoded them. */
export function withEncodedScanReplies<S extends grpc.ServiceDefinition>(service: S): S {
  return { ...service, Scan: { ...service.Scan, responseSerialize: (reply: Buffer) => reply } };
}

export async function serveScan(
  call: grpc.ServerWritableStream<ScanRequest__Output, unknown>,
  scan: (ranges: readonly RingRange[], batchSize: number, requireReady: boolean) => AsyncIterable<Entry[]>,
  logger: Logger,
): Promise<void> {
  const batchSize = Math.min(call.request.batchSize || DEFAULT_SCAN_BATCH, MAX_SCAN_BATCH);
  const pace = new ScanPace(call.request.bytesPerSecond, performance.now.bind(performance));
  const cancelled = new AbortController();
  call.once("cancelled", () => cancelled.abort());
  let sent = 0;
  for await (const batch of scan(call.request.ranges, batchSize, call.request.requireReady)) {
    for (const entries of byBytes(batch, entryBytes, MESSAGE_BUDGET_BYTES)) {
      if (call.cancelled) return;
      sent += entries.length;
      const reply = encodeEntryBatch(entries);
      if (!call.write(reply)) {
        await new Promise((resolve) => call.once("drain", resolve));
      }
      if (!pace.paced) continue;
      // An EntryBatch is its entries' frames, one after another: its length is what they count.
      for (let waitMs = pace.sent(reply.length); waitMs > 0; waitMs = pace.sent(0)) {
        if (!(await pause(waitMs, cancelled.signal))) return;
      }
    }
  }
  logger.debug({ entries: sent, ranges: call.request.ranges.length }, "scan finished");
  call.end();
}

/** Waits `ms`; false when the call was cancelled meanwhile. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
