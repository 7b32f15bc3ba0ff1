// Keys and key patterns as a data call gives them, and the entries a copy
// brings: each within the backend's limits, named in the error when it is not.
import { checkStamp, checkString, type Entry, type KeyPattern, type Limits } from "@binring/core";

export function checkKey(key: string, limits: Limits): string {
  return checkString("key", key, limits.maxKeyBytes);
}

export function checkPattern(pattern: KeyPattern, limits: Limits): KeyPattern {
  return {
    prefix: checkString("prefix", pattern.prefix ?? "", limits.maxKeyBytes),
    suffix: checkString("suffix", pattern.suffix ?? "", limits.maxKeyBytes),
  };
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
