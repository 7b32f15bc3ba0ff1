// How redis-engine.ts talks to lua/apply-entries.lua: the arguments of one
// script call for a turn's applies and claims, and what each result means.
import { type ApplyOutcome, type EntryKind, encodeStamp, ringPoint } from "@binring/core";
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

/** ARGV of one apply-entries.lua call: its settings, then 9 values per entry or claim, in order. */
export function applyScriptArguments(
  keyPrefix: string,
  chunk: readonly PendingStoreCall[],
): (string | number)[] {
  const args: (string | number)[] = [
    keyPrefix,
    REMOVE_RESULT_TTL_SECONDS,
    MAX_LIST_BYTES,
    LIST_ELEMENT_OVERHEAD_BYTES,
    WRITE_RECORD_TTL_SECONDS,
  ];
  for (const request of chunk) {
    if (!("entries" in request)) {
      args.push("claim", "", request.write, "", "", 0, "", 0, 0);
      continue;
    }
    const { entries, decides, limited } = request;
    for (const entry of entries) {
      args.push(entry.kind, binTag(entry.bin), entry.key, encodeStamp(entry.stamp), entry.value);
      args.push(ringPoint(entry.bin), entry.bin, decides ? 1 : 0, limited ? 1 : 0);
    }
  }
  return args;
}

/** What the script's result for one applied entry means (a refused append is told apart by the caller: result <= -3). */
export function applyOutcome(kind: EntryKind, result: number): ApplyOutcome {
  if (kind !== "remove") return { removed: 0, superseded: result === -1, countDecided: false };
  // A count decided by the remove's writer comes back as is, any other as -2 - count.
  return result >= 0
    ? { removed: result, superseded: false, countDecided: true }
    : { removed: -2 - result, superseded: false, countDecided: false };
}
