// The closed-loop workloads, over any key-value store: each operation picks
// one of `KEYSPACE` keys from its sequence number. The benchmarks run them
// against binring, Redis Cluster and raw Redis; `binring bench` against a
// running cluster.

export const WORKLOADS = ["set", "get", "listAppend", "mixed"] as const;
export type WorkloadName = (typeof WORKLOADS)[number];

/** 32-byte values, as in PERFORMANCE.md's anchors. */
export const VALUE = "v".repeat(32);

/** Keys every workload draws from; preloaded so that gets hit. */
export const KEYSPACE = 1000;

/** What a workload drives. Each key stands for a bin on binring: one string and one list per key. */
export interface LoadTarget {
  set(key: string, value: string): Promise<unknown>;
  get(key: string): Promise<string | null>;
  listAppend(key: string, value: string): Promise<unknown>;
}

export function keyOf(i: number): string {
  return `bin${i % KEYSPACE}`;
}

/** One operation of the workload; `mixed` is 90% get, 10% set. */
export function workloadOperation(
  target: LoadTarget,
  workload: WorkloadName,
): (i: number) => Promise<unknown> {
  switch (workload) {
    case "set":
      return (i) => target.set(keyOf(i), VALUE);
    case "get":
      return (i) => target.get(keyOf(i));
    case "listAppend":
      return (i) => target.listAppend(keyOf(i), VALUE);
    case "mixed":
      return (i) => (i % 10 === 9 ? target.set(keyOf(i), VALUE) : target.get(keyOf(i)));
  }
}

/** Sets every key of the keyspace, so reads find values. */
export async function preload(target: LoadTarget): Promise<void> {
  for (let i = 0; i < KEYSPACE; i += 100) {
    await Promise.all(Array.from({ length: 100 }, (_, j) => target.set(keyOf(i + j), VALUE)));
  }
}

/** Anything that hands out bins by name, as a BinClient does. */
export interface BinSource {
  bin(name: string): {
    set(key: string, value: string): Promise<unknown>;
    get(key: string): Promise<string | null>;
    listAppend(key: string, value: string): Promise<unknown>;
  };
}

/** binring as a load target: each workload key is a bin named `prefix + key`, with string "k" and list "l". */
export function binLoadTarget(client: BinSource, prefix = ""): LoadTarget {
  return {
    set: (key, value) => client.bin(prefix + key).set("k", value),
    get: (key) => client.bin(prefix + key).get("k"),
    listAppend: (key, value) => client.bin(prefix + key).listAppend("l", value),
  };
}
