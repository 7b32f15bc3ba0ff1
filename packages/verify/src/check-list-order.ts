// The list-order checker: binring's order contract for lists, checked apart from their contents
// (which check-linearizability.ts checks as a multiset). An append's position is fixed by its
// stamp when it starts and it shows once it reaches the replica readers use, so concurrent appends
// may show in any order while in flight; once they have returned, every reader sees one stable
// order. Per list key:
// - real-time order: when append(a) completed before append(b) was invoked, a precedes b in every
//   ok listGet and in the final list that holds both;
// - stable order: the elements of an ok listGet whose appends had completed before it was invoked
//   appear in the same relative order as in the final list.
// An append that failed or timed out has completion +∞: it constrains neither rule. Elements not in
// the final list (removed later) are held to the real-time rule only: comparing them across reads
// would take every pair of reads, and the chaos workload removes few of them. Values appended
// more than once (the workload never does) are skipped: their position does not name one append.
// Each rule is one left-to-right pass over a read: O(read length) after O(appends) set-up.
import type { FinalRead, History, Operation } from "./history.js";
import { groupBy, type KeyPartition, partitionByKey } from "./partition.js";
import {
  byInvoke,
  countStatuses,
  type Verdict,
  type Violation,
  ViolationList,
  verdictResult,
} from "./verdict.js";

export function checkListOrder(history: History): Verdict {
  const started = performance.now();
  const partitions = partitionByKey(history.ops, history.finals).filter((p) => p.kind === "list");
  const counts = countStatuses(partitions.flatMap((p) => p.ops));
  const violations = new ViolationList();
  let reads = 0;
  let withoutFinal = 0;
  for (const partition of partitions) {
    if (!partition.final) withoutFinal++;
    reads += checkKey(partition, violations);
  }
  counts.violations = violations.total;
  const notes: string[] = [];
  if (withoutFinal > 0) {
    notes.push(`${withoutFinal} list key(s) have no final read: only real-time order was checked on them`);
  }
  notes.push(
    `checked ${reads} read(s) of ${partitions.length} list key(s) in ${Math.round(performance.now() - started)} ms`,
  );
  return {
    checker: "list-order",
    result: verdictResult(violations.total, false),
    counts,
    violations: violations.listed,
    notes,
  };
}

/** Checks one key's reads and final list; returns how many reads were checked. */
function checkKey(partition: KeyPartition, violations: ViolationList): number {
  const where = `${partition.bin}/${partition.key}`;
  const appends = new KeyAppends(partition);
  const final = partition.final;
  const finalAppends = final ? appends.of(final.value as string[]) : [];
  // Each element's position in the final list, -1 when it is not there.
  const finalPosition = new Int32Array(appends.count).fill(-1);
  for (const [position, index] of finalAppends.entries()) finalPosition[index] = position;
  let reads = 0;
  for (const read of partition.ops) {
    if (read.op !== "listGet" || read.status !== "ok") continue;
    reads++;
    const shown = appends.of(read.result as string[]);
    const violation =
      realTimeViolation(where, appends, shown, read) ??
      (final ? stableOrderViolation(where, appends, shown, read, final, finalPosition) : undefined);
    if (violation) violations.add(violation);
  }
  if (final) {
    const violation = realTimeViolation(where, appends, finalAppends, final);
    if (violation) violations.add(violation);
  }
  return reads;
}

/**
 * The values appended exactly once to one key, numbered, with their appends' invoke and
 * completion times in typed arrays: the passes over long reads then cost one map lookup per
 * element.
 */
class KeyAppends {
  readonly appends: Operation[] = [];
  readonly #index = new Map<string, number>();
  readonly invoke: Float64Array;
  readonly completion: Float64Array;
  /** The last read each element was met in, to skip repeats (`of` numbers its calls). */
  readonly #lastSeen: Int32Array;
  #reads = 0;

  constructor(partition: KeyPartition) {
    const ops = partition.ops.filter((op) => op.op === "listAppend");
    for (const [value, appends] of groupBy(ops, (op) => op.value!)) {
      if (appends.length !== 1) continue;
      this.#index.set(value, this.appends.length);
      this.appends.push(appends[0]!);
    }
    this.invoke = Float64Array.from(this.appends, (op) => op.invoke);
    this.completion = Float64Array.from(this.appends, (op) =>
      op.status === "ok" ? op.complete : Number.POSITIVE_INFINITY,
    );
    this.#lastSeen = new Int32Array(this.appends.length).fill(-1);
  }

  get count(): number {
    return this.appends.length;
  }

  /** The numbers of a list's elements in the list's order; unknown values and repeats left out. */
  of(list: readonly string[]): number[] {
    const read = this.#reads++;
    const shown: number[] = [];
    for (const item of list) {
      const index = this.#index.get(item);
      if (index === undefined || this.#lastSeen[index] === read) continue;
      this.#lastSeen[index] = read;
      shown.push(index);
    }
    return shown;
  }
}

/**
 * A later element whose append completed before an earlier element's append was invoked. Some
 * earlier element is invoked after this one completed exactly when the latest invoke among the
 * earlier ones is, so one pass keeping that latest finds the first such pair.
 */
function realTimeViolation(
  where: string,
  appends: KeyAppends,
  shown: readonly number[],
  read: Operation | FinalRead,
): Violation | undefined {
  let latest = -1;
  for (const index of shown) {
    if (latest >= 0 && appends.completion[index]! < appends.invoke[latest]!) {
      const [before, after] = [appends.appends[latest]!, appends.appends[index]!];
      return {
        kind: "list-order-real-time",
        message:
          `${"id" in read ? "listGet" : "final list"} of ${where} shows ${JSON.stringify(before.value)} ` +
          `before ${JSON.stringify(after.value)}, but the append of the latter completed before the append of the former began`,
        window: byInvoke([after, before, read]),
      };
    }
    if (latest < 0 || appends.invoke[index]! > appends.invoke[latest]!) latest = index;
  }
  return undefined;
}

/**
 * Among the elements whose appends completed before the read began and that the final list holds,
 * a pair in the opposite order from the final list: one pass keeping the settled element furthest
 * along in the final list.
 */
function stableOrderViolation(
  where: string,
  appends: KeyAppends,
  shown: readonly number[],
  read: Operation,
  final: FinalRead,
  finalPosition: Int32Array,
): Violation | undefined {
  let furthest = -1;
  for (const index of shown) {
    const position = finalPosition[index]!;
    if (position < 0 || appends.completion[index]! >= read.invoke) continue;
    if (furthest >= 0 && position < finalPosition[furthest]!) {
      const [before, after] = [appends.appends[furthest]!, appends.appends[index]!];
      return {
        kind: "list-order-unstable",
        message:
          `listGet of ${where} shows ${JSON.stringify(before.value)} before ${JSON.stringify(after.value)}, ` +
          "the final list the other way round, though both appends had completed before the read began",
        window: byInvoke([after, before, read, final]),
      };
    }
    if (furthest < 0 || position > finalPosition[furthest]!) furthest = index;
  }
  return undefined;
}
