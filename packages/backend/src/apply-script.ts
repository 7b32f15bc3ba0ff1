// How redis-engine.ts talks to lua/apply-entries.lua: the arguments of one
// script call for a turn's applies and claims, and what each result means.
// The entries travel as one MessagePack array (the script unpacks it with
// Redis's cmsgpack) rather than as 9 arguments each: building and writing an
// argument per value was most of what an apply cost the backend (200-entry
// calls: 4.2–5.4 µs per entry as arguments, 2.2–3.0 packed; Redis the same).
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
 * ARGV of one apply-entries.lua call: its settings, then one MessagePack
 * array of 9 strings per entry or claim, in order.
 */
export function applyScriptArguments(
  keyPrefix: string,
  chunk: readonly PendingStoreCall[],
): (string | number | Buffer)[] {
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
  return [
    keyPrefix,
    REMOVE_RESULT_TTL_SECONDS,
    MAX_LIST_BYTES,
    LIST_ELEMENT_OVERHEAD_BYTES,
    WRITE_RECORD_TTL_SECONDS,
    packer.pack(values),
  ];
}

/** What the script's result for one applied entry means (a refused append is told apart by the caller: result <= -3). */
export function applyOutcome(kind: EntryKind, result: number): ApplyOutcome {
  if (kind !== "remove") return { removed: 0, superseded: result === -1, countDecided: false };
  // A count decided by the remove's writer comes back as is, any other as -2 - count.
  return result >= 0
    ? { removed: result, superseded: false, countDecided: true }
    : { removed: -2 - result, superseded: false, countDecided: false };
}
