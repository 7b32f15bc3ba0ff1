// A keys or listKeys call's read of its bin's key set (k: for string keys,
// lk: for lists; redis-engine.ts has the layout), by SSCAN in pages. One
// SMEMBERS held Redis for as long as the set was large, and this process held
// all of it before the reply's size was checked; a page holds Redis about a
// millisecond, and the read stops as soon as what matches passes the largest
// reply.
//
// Paged, the result is not one instant's snapshot of the set, but each key in
// it is as of some instant of the call (SSCAN's guarantee): a key in the set
// from the call's start to its end is in the result, one out of it throughout
// is not, and one set or deleted meanwhile may be either, as if read then.
import { type KeyPattern, MAX_RESULT_BYTES, matchesPattern } from "@binring/core";
import { resultPassedLimit } from "./message-sizes.js";
import type { RedisConnection } from "./redis-connection.js";
import { KEYS_PER_PAGE } from "./redis-scan.js";
import type { TurnPipeline } from "./turn-pipeline.js";

/** The members of `set` the pattern takes in, sorted; `what` names the reply in a refusal. */
export async function keysInSet(
  connection: RedisConnection,
  pipeline: TurnPipeline,
  set: string,
  pattern: KeyPattern,
  what: string,
): Promise<string[]> {
  const keys = new Set<string>();
  let bytes = 0;
  let cursor = "0";
  do {
    const [next, page] = await connection.call(() =>
      pipeline.send<[string, string[]]>("sscan", set, cursor, "COUNT", KEYS_PER_PAGE),
    );
    for (const key of page) {
      // SSCAN may return a member twice (the set was resized between pages).
      if (keys.has(key) || !matchesPattern(key, pattern)) continue;
      keys.add(key);
      bytes += Buffer.byteLength(key, "utf8");
      if (bytes > MAX_RESULT_BYTES) throw resultPassedLimit(what, keys.size, bytes);
    }
    cursor = next;
  } while (cursor !== "0");
  return [...keys].sort();
}
