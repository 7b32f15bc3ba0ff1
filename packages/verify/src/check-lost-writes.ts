// The lost-writes checker: compares the final state (read after the cluster healed) and every
// read with what was written. An acknowledged set is lost when the final value comes from a write
// that had completed before that set was invoked (or the key reads unset though nothing could have
// deleted it after the set). An acknowledged listAppend is lost when its value is missing from the
// final list and no listRemove of the value (acknowledged, or one that may have happened) could
// follow it. A value nobody wrote is a phantom; a list element seen more often than it was
// appended is a duplicate; an element present after an acknowledged remove that began once every
// append of it had completed is resurrected.
import type { FinalRead, History, Operation } from "./history.js";
import { groupBy, type KeyPartition, partitionByKey } from "./partition.js";
import { byInvoke, countStatuses, type Verdict, ViolationList, verdictResult } from "./verdict.js";

/** When a write may have taken effect at the latest: never known for one that was not acknowledged. */
const latestEffect = (op: Operation) => (op.status === "ok" ? op.complete : Number.POSITIVE_INFINITY);

export function checkLostWrites(history: History): Verdict {
  const partitions = partitionByKey(history.ops, history.finals);
  const counts = countStatuses(partitions.flatMap((p) => p.ops));
  const violations = new ViolationList();
  let withoutFinal = 0;
  for (const partition of partitions) {
    const acknowledgedWrites = partition.ops.some(
      (op) => op.status === "ok" && (op.op === "set" || op.op === "listAppend"),
    );
    if (!partition.final && acknowledgedWrites) withoutFinal++;
    const lost =
      partition.kind === "string"
        ? checkStringKey(partition, violations)
        : checkListKey(partition, violations);
    counts.lost += lost;
  }
  counts.violations = violations.total;
  const notes: string[] = [];
  if (withoutFinal > 0) {
    notes.push(
      `${withoutFinal} key(s) with acknowledged writes have no final read: their writes were not checked`,
    );
  }
  return {
    checker: "lost-writes",
    result: verdictResult(violations.total, withoutFinal > 0),
    counts,
    violations: violations.listed,
    notes,
  };
}

/** Returns how many acknowledged sets were lost. */
function checkStringKey(partition: KeyPartition, violations: ViolationList): number {
  const sets = partition.ops.filter((op) => op.op === "set");
  // A null read is explained by the initial state or by any delete (set to "").
  const writesOf = groupBy(sets, (op) => (op.value === "" ? null : op.value!));
  const where = `${partition.bin}/${partition.key}`;
  for (const read of partition.ops) {
    if (read.op !== "get" || read.status !== "ok" || read.result === null) continue;
    if (!writesOf.has(read.result as string)) {
      violations.add({
        kind: "phantom",
        message: `get of ${where} returned ${JSON.stringify(read.result)}, which no set of this key wrote`,
        window: [read],
      });
    }
  }
  const final = partition.final;
  if (!final) return 0;
  const value = final.value as string | null;
  const candidates = writesOf.get(value) ?? [];
  if (value !== null && candidates.length === 0) {
    violations.add({
      kind: "phantom",
      message: `final value of ${where} is ${JSON.stringify(value)}, which no set of this key wrote`,
      window: [final],
    });
    return 0;
  }
  // The write the final value could come from that took effect last; the initial state when null.
  const latest = candidates.reduce<Operation | undefined>(
    (best, op) => (best === undefined || latestEffect(op) > latestEffect(best) ? op : best),
    undefined,
  );
  const latestTime = latest ? latestEffect(latest) : Number.NEGATIVE_INFINITY;
  const finalExplainedBy = value === null ? "unset" : JSON.stringify(value);
  let lost = 0;
  for (const write of sets) {
    if (write.status !== "ok" || (write.value === "" ? null : write.value) === value) continue;
    if (latestTime < write.invoke) {
      lost++;
      violations.add({
        kind: "lost-write",
        message:
          `acknowledged set of ${where} to ${JSON.stringify(write.value)} is lost: the final value is ` +
          `${finalExplainedBy}, ${latest ? "written by a set that completed before it began" : "and no delete could follow it"}`,
        window: byInvoke(latest ? [latest, write, final] : [write, final]),
      });
    }
  }
  return lost;
}

/** Returns how many acknowledged appends were lost. */
function checkListKey(partition: KeyPartition, violations: ViolationList): number {
  const appendsOf = groupBy(
    partition.ops.filter((op) => op.op === "listAppend"),
    (op) => op.value!,
  );
  const removesOf = groupBy(
    partition.ops.filter((op) => op.op === "listRemove"),
    (op) => op.value!,
  );
  const where = `${partition.bin}/${partition.key}`;
  const checkRead = (read: Operation | FinalRead, list: string[], what: string) => {
    const seen = new Map<string, number>();
    for (const item of list) seen.set(item, (seen.get(item) ?? 0) + 1);
    for (const [item, occurrences] of seen) {
      const appends = appendsOf.get(item) ?? [];
      if (appends.length === 0) {
        violations.add({
          kind: "phantom",
          message: `${what} of ${where} holds ${JSON.stringify(item)}, which no listAppend of this key wrote`,
          window: [read],
        });
      } else if (occurrences > appends.length) {
        violations.add({
          kind: "duplicate",
          message: `${what} of ${where} holds ${JSON.stringify(item)} ${occurrences} times; it was appended ${appends.length} time(s)`,
          window: byInvoke([...appends, read]),
        });
      }
    }
  };
  for (const read of partition.ops) {
    if (read.op === "listGet" && read.status === "ok") checkRead(read, read.result as string[], "listGet");
  }
  const final = partition.final;
  if (!final) return 0;
  const finalList = final.value as string[];
  checkRead(final, finalList, "final list");
  const present = new Set(finalList);
  let lost = 0;
  for (const [item, appends] of appendsOf) {
    const removes = removesOf.get(item) ?? [];
    if (present.has(item)) {
      // Every append of it had completed when an acknowledged remove began: it must be gone.
      const lastAppend = appends.reduce(
        (last, op) => Math.max(last, latestEffect(op)),
        Number.NEGATIVE_INFINITY,
      );
      const remove = removes.find((op) => op.status === "ok" && op.invoke > lastAppend);
      if (remove) {
        violations.add({
          kind: "resurrected",
          message: `final list ${where} holds ${JSON.stringify(item)}, removed by an acknowledged listRemove that began after every append of it had completed`,
          window: byInvoke([...appends, remove, final]),
        });
      }
      continue;
    }
    for (const append of appends) {
      if (append.status !== "ok") continue;
      // A remove could follow the append unless it was acknowledged before the append began.
      if (removes.some((remove) => latestEffect(remove) >= append.invoke)) continue;
      lost++;
      violations.add({
        kind: "lost-append",
        message: `acknowledged listAppend of ${JSON.stringify(item)} to ${where} is missing from the final list and no listRemove of it could follow it`,
        window: byInvoke([append, ...removes, final]),
      });
    }
  }
  return lost;
}
