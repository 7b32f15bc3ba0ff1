// Keys and key patterns as a data call gives them, and the entries a copy
// brings: each within the backend's limits, named in the error when it is not.
import {
  checkStamp,
  checkString,
  checkWriterId,
  type Entry,
  type EntryKind,
  InvalidArgumentError,
  type KeyPattern,
  type Limits,
  type Stamp,
} from "@binring/core";

/** Most replicas a withheld entry waits for: a write lists at most 8 (client write-request.ts). */
export const MAX_LATER_REPLICAS = 7;
/** Longest address a withheld entry names (a host name, a colon and a port). */
const MAX_ADDRESS_BYTES = 261;

export function checkKey(key: string, limits: Limits): string {
  return checkString("key", key, limits.maxKeyBytes);
}

export function checkPattern(pattern: KeyPattern, limits: Limits): KeyPattern {
  return {
    prefix: checkString("prefix", pattern.prefix ?? "", limits.maxKeyBytes),
    suffix: checkString("suffix", pattern.suffix ?? "", limits.maxKeyBytes),
  };
}

/**
 * The replicas a forwarded set names as after this one (storage.proto
 * SetRequest.later_replicas): only for a stamped set, at most
 * MAX_LATER_REPLICAS addresses of bounded length, none twice.
 */
export function checkLater(
  later: readonly string[],
  kind: EntryKind,
  stamp: Stamp | undefined,
): readonly string[] {
  if (later.length === 0) return later;
  if (kind !== "set" || !stamp)
    throw new InvalidArgumentError(
      `later_replicas is for stamped sets only, got ${stamp ? "a stamped" : "an unstamped"} ${kind}`,
    );
  if (later.length > MAX_LATER_REPLICAS)
    throw new InvalidArgumentError(
      `later_replicas may name at most ${MAX_LATER_REPLICAS} backends, got ${later.length}`,
    );
  for (const [i, address] of later.entries()) checkString(`later_replicas[${i}]`, address, MAX_ADDRESS_BYTES);
  if (new Set(later).size !== later.length)
    throw new InvalidArgumentError(`later_replicas names a backend twice: ${JSON.stringify(later)}`);
  return later;
}

/** A claim's write (its writer id) and the claim's own name, 1 to 64 characters. */
export function checkClaim(writer: string, claim: string): void {
  checkWriterId("writer", writer);
  if (claim.length === 0 || claim.length > 64)
    throw new InvalidArgumentError(`claim must be 1 to 64 characters, got ${claim.length}`);
}

/** Checks every entry a copy brings (`Apply`); returns the largest clock among their stamps. */
export function checkCopies(entries: readonly Entry[], limits: Limits): bigint {
  let highest = 0n;
  entries.forEach((entry, i) => {
    const field = `entries[${i}]`;
    checkString(`${field}.bin`, entry.bin, limits.maxKeyBytes);
    checkString(`${field}.key`, entry.key, limits.maxKeyBytes);
    checkString(`${field}.value`, entry.value, limits.maxValueBytes);
    checkStamp(`${field}.stamp`, entry.stamp);
    if (entry.stamp.clock > highest) highest = entry.stamp.clock;
  });
  return highest;
}
