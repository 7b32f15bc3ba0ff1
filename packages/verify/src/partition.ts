// Groups a history's operations by what they touch: P-compositionality lets each (bin, key) of
// each kind be checked on its own.
import type { FinalRead, Operation } from "./history.js";

export type KeyKind = "string" | "list";

export interface KeyPartition {
  bin: string;
  key: string;
  kind: KeyKind;
  /** In invoke order. */
  ops: Operation[];
  final?: FinalRead;
}

export const keyKindOf = (op: Operation): KeyKind | undefined =>
  op.op === "set" || op.op === "get" ? "string" : op.op === "clock" ? undefined : "list";

const partitionId = (kind: string, bin: string, key: string) => JSON.stringify([kind, bin, key]);

/** Every (kind, bin, key) that an operation or a final read names, with its operations. */
export function partitionByKey(ops: readonly Operation[], finals: readonly FinalRead[]): KeyPartition[] {
  const partitions = new Map<string, KeyPartition>();
  const partitionFor = (kind: KeyKind, bin: string, key: string) => {
    const id = partitionId(kind, bin, key);
    let partition = partitions.get(id);
    if (!partition) {
      partition = { bin, key, kind, ops: [] };
      partitions.set(id, partition);
    }
    return partition;
  };
  for (const op of ops) {
    const kind = keyKindOf(op);
    if (kind) partitionFor(kind, op.bin, op.key!).ops.push(op);
  }
  for (const final of finals) partitionFor(final.kind, final.bin, final.key).final = final;
  for (const partition of partitions.values()) partition.ops.sort((a, b) => a.invoke - b.invoke);
  return [...partitions.values()];
}

/** Groups items by a derived key, keeping each group in input order. */
export function groupBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
