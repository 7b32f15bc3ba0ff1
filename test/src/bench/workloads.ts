// The closed-loop workloads of the throughput benchmark, over any system:
// each operation picks one of `keyspace` keys from its sequence number.
import type { SystemClient } from "./systems.js";

export const WORKLOADS = ["set", "get", "listAppend", "mixed"] as const;
export type WorkloadName = (typeof WORKLOADS)[number];

/** 32-byte values, as in PERFORMANCE.md's anchors. */
export const VALUE = "v".repeat(32);

/** Keys every workload draws from; preloaded so that gets hit. */
export const KEYSPACE = 1000;

export function keyOf(i: number): string {
  return `bin${i % KEYSPACE}`;
}

/** One operation of the workload; `mixed` is 90% get, 10% set. */
export function workloadOperation(
  client: SystemClient,
  workload: WorkloadName,
): (i: number) => Promise<unknown> {
  switch (workload) {
    case "set":
      return (i) => client.set(keyOf(i), VALUE);
    case "get":
      return (i) => client.get(keyOf(i));
    case "listAppend":
      return (i) => client.listAppend(keyOf(i), VALUE);
    case "mixed":
      return (i) => (i % 10 === 9 ? client.set(keyOf(i), VALUE) : client.get(keyOf(i)));
  }
}

/** Sets every key of the keyspace, so reads find values. */
export async function preload(client: SystemClient): Promise<void> {
  for (let i = 0; i < KEYSPACE; i += 100) {
    await Promise.all(Array.from({ length: 100 }, (_, j) => client.set(keyOf(i + j), VALUE)));
  }
}
