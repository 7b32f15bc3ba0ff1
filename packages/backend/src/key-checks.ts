// Keys and key patterns as a data call gives them: each within the backend's
// key limit, named in the error when it is not.
import { checkString, type KeyPattern, type Limits } from "@binring/core";

export function checkKey(key: string, limits: Limits): string {
  return checkString("key", key, limits.maxKeyBytes);
}

export function checkPattern(pattern: KeyPattern, limits: Limits): KeyPattern {
  return {
    prefix: checkString("prefix", pattern.prefix ?? "", limits.maxKeyBytes),
    suffix: checkString("suffix", pattern.suffix ?? "", limits.maxKeyBytes),
  };
}
