// What a checker concludes: a verdict with counts, and each violation with the smallest window of
// operations that shows it.
import type { FinalRead, Operation } from "./history.js";

export type CheckerName = "lost-writes" | "linearizability" | "lists" | "list-order" | "clock";

export type VerdictResult = "pass" | "fail" | "unknown";

export interface VerdictCounts {
  /** Operations this checker read. */
  ops: number;
  ok: number;
  failed: number;
  unknown: number;
  /** Acknowledged writes missing from the final state. */
  lost: number;
  /** Reads that returned a value overwritten before the read began. */
  stale: number;
  /** Violations found: each lost write, phantom, duplicate or clock regression; for the linearizability checkers, each key that is not linearizable. */
  violations: number;
}

export interface Violation {
  kind: string;
  message: string;
  /** The operations (and final read, if it takes part) that show the violation, in invoke order. */
  window: (Operation | FinalRead)[];
}

export interface Verdict {
  checker: CheckerName;
  result: VerdictResult;
  counts: VerdictCounts;
  /** Violations, at most MAX_LISTED_VIOLATIONS of them; `counts.violations` has the total. */
  violations: Violation[];
  /** Why a result is unknown, what was not checked, how long it took. */
  notes: string[];
}

export const MAX_LISTED_VIOLATIONS = 20;

export function countStatuses(ops: Iterable<Operation>): VerdictCounts {
  const counts: VerdictCounts = { ops: 0, ok: 0, failed: 0, unknown: 0, lost: 0, stale: 0, violations: 0 };
  for (const op of ops) {
    counts.ops++;
    if (op.status === "ok") counts.ok++;
    else if (op.status === "fail") counts.failed++;
    else counts.unknown++;
  }
  return counts;
}

/** Collects violations, keeping the total but listing only the first few. */
export class ViolationList {
  readonly listed: Violation[] = [];
  total = 0;

  add(violation: Violation): void {
    this.total++;
    if (this.listed.length < MAX_LISTED_VIOLATIONS) this.listed.push(violation);
  }
}

export function isFinal(entry: Operation | FinalRead): entry is FinalRead {
  return !("invoke" in entry);
}

const json = (value: unknown) => JSON.stringify(value);
const ms = (time: number) => (Number.isFinite(time) ? time.toFixed(1) : "∞");

const LISTED_ELEMENTS = 10;

/** A list result cut to its first elements, so that a window stays readable. */
function showResult(result: Operation["result"]): string {
  if (!Array.isArray(result) || result.length <= LISTED_ELEMENTS) return json(result);
  const shown = result.slice(0, LISTED_ELEMENTS).map((item) => json(item));
  return `[${shown.join(",")},... ${result.length - LISTED_ELEMENTS} more]`;
}

/** One line per window entry, e.g. `#17 p3 [1203.5, 1207.9] set b1/k2 "p3-17" ok -> true`. */
export function describeEntry(entry: Operation | FinalRead): string {
  if (isFinal(entry)) return `final ${entry.kind} ${entry.bin}/${entry.key} = ${json(entry.value)}`;
  const target = entry.key === undefined ? entry.bin : `${entry.bin}/${entry.key}`;
  const argument =
    entry.value !== undefined ? ` ${json(entry.value)}` : entry.atLeast ? ` ${entry.atLeast}` : "";
  const outcome =
    entry.status === "ok"
      ? `ok -> ${showResult(entry.result)}`
      : `${entry.status}${entry.error ? ` (${entry.error})` : ""}`;
  return `#${entry.id} p${entry.process} [${ms(entry.invoke)}, ${ms(entry.complete)}] ${entry.op} ${target}${argument} ${outcome}`;
}

export function byInvoke(entries: (Operation | FinalRead)[]): (Operation | FinalRead)[] {
  const time = (entry: Operation | FinalRead) => (isFinal(entry) ? Number.POSITIVE_INFINITY : entry.invoke);
  return [...entries].sort((a, b) => (time(a) === time(b) ? 0 : time(a) < time(b) ? -1 : 1));
}

export function verdictResult(violations: number, undecided: boolean): VerdictResult {
  return violations > 0 ? "fail" : undecided ? "unknown" : "pass";
}
