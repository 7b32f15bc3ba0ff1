// The clock checker. Within a bin, of two acknowledged clock() calls where one completed before
// the other was invoked, the later returns strictly more. Across bins (keepers converge clocks),
// a call invoked at least `crossBinGapMs` after another completed returns no less. Every result is
// at least the call's atLeast.
import type { History, Operation } from "./history.js";
import { groupBy } from "./partition.js";
import { countStatuses, type Verdict, ViolationList, verdictResult } from "./verdict.js";

export interface ClockOptions {
  /** How long after a call another call in any bin must return no less. @default 1000 */
  crossBinGapMs?: number;
}

interface ClockRead {
  op: Operation;
  value: bigint;
}

export function checkClock(history: History, options: ClockOptions = {}): Verdict {
  const gapMs = options.crossBinGapMs ?? 1000;
  const calls = history.ops.filter((op) => op.op === "clock");
  const counts = countStatuses(calls);
  const violations = new ViolationList();
  const reads: ClockRead[] = calls
    .filter((op) => op.status === "ok")
    .map((op) => ({ op, value: BigInt(op.result as string) }));
  for (const read of reads) {
    if (read.op.atLeast !== undefined && read.value < BigInt(read.op.atLeast)) {
      violations.add({
        kind: "clock-below-at-least",
        message: `clock of ${read.op.bin} returned ${read.value}, below its atLeast ${read.op.atLeast}`,
        window: [read.op],
      });
    }
  }
  for (const [bin, inBin] of groupBy(reads, (read) => read.op.bin)) {
    for (const [earlier, later] of regressions(
      inBin,
      (complete, invoke) => complete < invoke,
      (before, after) => after.value <= before.value,
    )) {
      violations.add({
        kind: "clock-not-increasing",
        message: `clock of ${bin} returned ${later.value} after an earlier call had returned ${earlier.value}`,
        window: [earlier.op, later.op],
      });
    }
  }
  for (const [earlier, later] of regressions(
    reads,
    (complete, invoke) => complete + gapMs <= invoke,
    (before, after) => after.value < before.value,
  )) {
    violations.add({
      kind: "clock-behind-across-bins",
      message:
        `clock of ${later.op.bin} returned ${later.value}, below the ${earlier.value} that ${earlier.op.bin} ` +
        `returned ${Math.round(later.op.invoke - earlier.op.complete)} ms earlier`,
      window: [earlier.op, later.op],
    });
  }
  counts.violations = violations.total;
  return {
    checker: "clock",
    result: verdictResult(violations.total, false),
    counts,
    violations: violations.listed,
    notes: [],
  };
}

/**
 * Pairs (earlier, later) where `earlier` completed `before` `later` was invoked and
 * `bad(earlier, later)`; for each later call, the earlier one is the largest value it had to beat,
 * so each offending call is reported once, against its strongest witness.
 */
function regressions(
  reads: readonly ClockRead[],
  before: (earlierComplete: number, laterInvoke: number) => boolean,
  bad: (earlier: ClockRead, later: ClockRead) => boolean,
): [ClockRead, ClockRead][] {
  const byComplete = [...reads].sort((a, b) => a.op.complete - b.op.complete);
  const byInvoke = [...reads].sort((a, b) => a.op.invoke - b.op.invoke);
  const found: [ClockRead, ClockRead][] = [];
  let largest: ClockRead | undefined;
  let next = 0;
  for (const later of byInvoke) {
    while (next < byComplete.length && before(byComplete[next]!.op.complete, later.op.invoke)) {
      const candidate = byComplete[next++]!;
      if (!largest || candidate.value > largest.value) largest = candidate;
    }
    if (largest && bad(largest, later)) found.push([largest, later]);
  }
  return found;
}
