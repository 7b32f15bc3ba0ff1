// How many times a Redis served each command since its counters were last
// reset (INFO commandstats, CONFIG RESETSTAT): what a test counts to show
// which commands a part of the backend sends, and how many.
import type { Redis } from "ioredis";

/** Calls served by command name, lower case; a command never served is absent. */
export async function commandCalls(redis: Redis): Promise<Record<string, number>> {
  const stats = await redis.info("commandstats");
  return Object.fromEntries(
    [...stats.matchAll(/cmdstat_(\w+):calls=(\d+)/g)].map(([, name, calls]) => [name!, Number(calls)]),
  );
}
