// How redis-engine.ts talks to lua/apply-entries.lua: the arguments of one
// script call for a turn's applies and claims, and what each result means.
// A call of many entries passes them as one MessagePack array (the script
// unpacks it with Redis's cmsgpack) rather than as 9 arguments each: building
// and writing an argument per value was most of what a copy's apply cost the
// backend. A call of a few entries, as most client writes make, is cheaper as
// arguments (PACKED_FROM_ENTRIES).
import { type ApplyOutcome, type EntryKind, encodeStamp, ringPoint } from "@binring/core";
import { Packr } from "msgpackr";
import type { PendingStoreCall } from "./pending-apply.js";
import {
  LIST_ELEMENT_OVERHEAD_BYTES,
  MAX_LIST_BYTES,
  REMOVE_RESULT_TTL_SECONDS,
  WRITE_RECORD_TTL_SECONDS,
} from "./store-engine.js";

/** A bin as Redis keys spell it: "<UTF-8 byte length>:<bin>", so "<bin><key>" is injective. */
export function binTag(bin: string): string {
  return `${Buffer.byteLength(bin, "utf8")}:${bin}`;
}

/** Plain MessagePack, which cmsgpack reads: no msgpackr records or other extensions. */
const packer = new Packr({ useRecords: false });

/**
 * Calls of at least this many entries and claims pass them packed. Node CPU
 * per entry (a scratch redis-server, ioredis, the script): 200 per call, 4.2–5.4
 * µs as arguments, 2.2–3.0 packed; 1 per call, 28.5–28.9 against 31.1–31.7;
 * about even at 4–8. Redis's CPU is the same either way.
 */
export const PACKED_FROM_ENTRIES = 16;

/**
 * ARGV of one apply-entries.lua call: its settings, then 9 strings per entry
 * or claim, in order — as arguments, or from PACKED_FROM_ENTRIES on as one
 * MessagePack array.
 */
export function applyScriptArguments(
  keyPrefix: string,
  chunk: readonly PendingStoreCall[],
): (string | number | Buffer)[] {
  const settings = [
    keyPrefix,
    REMOVE_RESULT_TTL_SECONDS,
    MAX_LIST_BYTES,
    LIST_ELEMENT_OVERHEAD_BYTES,
    WRITE_RECORD_TTL_SECONDS,
  ];
  const values = entryValues(chunk);
  if (values.length < PACKED_FROM_ENTRIES * 9) return [...settings, ...values];
  return [...settings, packer.pack(values)];
}

/** The 9 strings of each entry or claim of the chunk, in order. */
function entryValues(chunk: readonly PendingStoreCall[]): string[] {
  const values: string[] = [];
  for (const request of chunk) {
    if (!("entries" in request)) {
      values.push("claim", "", request.write, "", "", "0", "", "0", "0");
      continue;
    }
    const decides = request.decides ? "1" : "0";
    const limited = request.limited ? "1" : "0";
    for (const entry of request.entries) {
      values.push(entry.kind, binTag(entry.bin), entry.key, encodeStamp(entry.stamp), entry.value);
      values.push(String(ringPoint(entry.bin)), entry.bin, decides, limited);
    }
  }
  return values;
}

/** What the script's result for one applied entry means (a refused append is told apart by the caller: result <= -3). */
export function applyOutcome(kind: EntryKind, result: number): ApplyOutcome {
  if (kind !== "remove") return { removed: 0, superseded: result === -1, countDecided: false };
  // A count decided by the remove's writer comes back as is, any other as -2 - count.
  return result >= 0
    ? { removed: result, superseded: false, countDecided: true }
    : { removed: -2 - result, superseded: false, countDecided: false };
}
