// The linearizability checkers: each (bin, key) on its own (P-compositionality), string keys
// against a register and list keys against their contents (a multiset; order is check-list-order.ts's), with the Wing–Gong–Lowe search of
// wgl-search.ts under a time budget per key and overall. A key that is not linearizable is shrunk
// to a smallest window of operations that is still not linearizable on its own (see `shrink`).
import type { History, Operation } from "./history.js";
import { listModel, registerModel } from "./models.js";
import { groupBy, type KeyKind, type KeyPartition, partitionByKey } from "./partition.js";
import {
  byInvoke,
  type CheckerName,
  countStatuses,
  type Verdict,
  type Violation,
  ViolationList,
  verdictResult,
} from "./verdict.js";
import { type Model, type SearchResult, searchLinearization, type TimedOp } from "./wgl-search.js";

export interface LinearizabilityOptions {
  /** Time for all keys together, then the rest are reported unknown. @default 60000 */
  budgetMs?: number;
  /** Time for one key's search (and again for shrinking its window). @default 10000 */
  keyBudgetMs?: number;
}

const DEFAULT_BUDGET_MS = 60_000;
const DEFAULT_KEY_BUDGET_MS = 10_000;

/** A value a read can return, as it names writes: null is "unset", the state a delete leaves. */
type Token = string | null;

export function checkRegisterLinearizability(
  history: History,
  options: LinearizabilityOptions = {},
): Verdict {
  return checkKind("linearizability", "string", history, options);
}

export function checkListLinearizability(history: History, options: LinearizabilityOptions = {}): Verdict {
  return checkKind("lists", "list", history, options);
}

function checkKind(
  checker: CheckerName,
  kind: KeyKind,
  history: History,
  options: LinearizabilityOptions,
): Verdict {
  const started = performance.now();
  const overallDeadline = started + (options.budgetMs ?? DEFAULT_BUDGET_MS);
  const keyBudgetMs = options.keyBudgetMs ?? DEFAULT_KEY_BUDGET_MS;
  const partitions = partitionByKey(history.ops, []).filter((p) => p.kind === kind);
  const counts = countStatuses(partitions.flatMap((p) => p.ops));
  const violations = new ViolationList();
  const undecided: string[] = [];
  const notes: string[] = [];
  for (const partition of partitions) {
    const where = `${partition.bin}/${partition.key}`;
    const checked = new KeyHistory(partition);
    const stale = checked.staleReads();
    counts.stale += stale.length;
    const deadline = Math.min(overallDeadline, performance.now() + keyBudgetMs);
    const result: SearchResult =
      performance.now() > overallDeadline ? "unknown" : checked.search(checked.ops, deadline);
    if (result === "ok") continue;
    if (result === "unknown" && stale.length === 0) {
      undecided.push(where);
      continue;
    }
    if (result === "unknown") {
      // The search ran out of time, but a stale read alone proves the key is not linearizable.
      violations.add(stale[0]!);
      continue;
    }
    const shrunk = checked.shrink(Math.min(overallDeadline, performance.now() + keyBudgetMs));
    violations.add({
      kind: "not-linearizable",
      message:
        `${kind} key ${where} is not linearizable (${checked.ops.length} operations checked); ` +
        `the ${shrunk.window.length} below cannot be ordered` +
        (shrunk.values
          ? ` when their reads are restricted to ${shrunk.values.length > 5 ? `${shrunk.values.length} values` : JSON.stringify(shrunk.values)}`
          : "") +
        (shrunk.minimal ? "" : " (the budget ran out before this window was shrunk further)"),
      window: byInvoke(shrunk.window),
    });
  }
  counts.violations = violations.total;
  if (undecided.length > 0) {
    notes.push(
      `undecided within the budget: ${undecided.length} key(s) (${undecided.slice(0, 5).join(", ")}${undecided.length > 5 ? ", ..." : ""})`,
    );
  }
  notes.push(`checked ${partitions.length} key(s) in ${Math.round(performance.now() - started)} ms`);
  if (kind === "list") {
    notes.push(
      "model: list contents with append and remove; every listGet is checked, order aside (see list-order)",
    );
  }
  return {
    checker,
    result: verdictResult(violations.total, undecided.length > 0),
    counts,
    violations: violations.listed,
    notes,
  };
}

interface Shrunk {
  window: Operation[];
  /** False when the budget ran out before the window was as small as it gets. */
  minimal: boolean;
  /** For lists: the values the reads in the window are restricted to. */
  values?: string[];
}

/** One key's operations prepared for the search: what can be dropped is dropped. */
class KeyHistory {
  readonly kind: KeyKind;
  readonly model: Model<unknown, Operation>;
  /** The operations searched, in invoke order. */
  readonly ops: Operation[];
  /** Writes of each value (for lists, appends and removes of it). */
  readonly writesOf: Map<Token, Operation[]>;
  /** For a write that may or may not have happened but was seen: when it had happened at the latest. */
  readonly seenBy = new Map<Operation, number>();

  constructor(partition: KeyPartition) {
    this.kind = partition.kind;
    this.model = (partition.kind === "string" ? registerModel() : listModel()) as Model<unknown, Operation>;
    const isRead = (op: Operation) => op.op === "get" || op.op === "listGet";
    // A read that returned nothing constrains nothing.
    const candidates = partition.ops.filter((op) => !isRead(op) || op.status === "ok");
    const observed = new Set<Token>();
    const removedSome = new Set<string>();
    const appended = new Set<string>();
    for (const op of candidates) {
      if (isRead(op)) for (const token of this.readTokens(op)) observed.add(token);
      if (op.op === "listRemove" && op.status === "ok" && (op.result as number) > 0)
        removedSome.add(op.value!);
      if (op.op === "listAppend") appended.add(op.value!);
    }
    // A write that may not have happened and whose effect nobody saw can be placed after
    // everything: dropping it changes no verdict and keeps the search small.
    this.ops = candidates.filter((op) => {
      if (op.status === "ok" || isRead(op)) return true;
      if (op.op === "set") return observed.has(op.value === "" ? null : op.value!);
      if (op.op === "listAppend") return observed.has(op.value!) || removedSome.has(op.value!);
      return appended.has(op.value!);
    });
    this.writesOf = groupBy(
      this.ops.filter((op) => !isRead(op)),
      (op): Token => (op.op === "set" && op.value === "" ? null : op.value!),
    );
    this.boundIndefiniteWrites();
  }

  /**
   * A write that may or may not have happened stays pending to the end of the history, and the
   * search tries it at every step. When it is the only write of its value and a read returned that
   * value (or a remove counted it), it happened before that read completed: every linearization
   * says so, so using that as its return time changes no verdict and prunes most of the search.
   */
  boundIndefiniteWrites(): void {
    const soleWriter = new Map<string, Operation>();
    for (const [token, writes] of this.writesOf) {
      const adds = writes.filter((op) => op.op !== "listRemove");
      if (token !== null && adds.length === 1 && adds[0]!.status !== "ok") soleWriter.set(token, adds[0]!);
    }
    if (soleWriter.size === 0) return;
    const seen = (token: Token, at: number) => {
      const write = token === null ? undefined : soleWriter.get(token);
      if (write) this.seenBy.set(write, Math.min(this.seenBy.get(write) ?? Number.POSITIVE_INFINITY, at));
    };
    for (const op of this.ops) {
      if (op.status !== "ok") continue;
      if (op.op === "get" || op.op === "listGet")
        for (const token of this.readTokens(op)) seen(token, op.complete);
      if (op.op === "listRemove" && (op.result as number) > 0) seen(op.value!, op.complete);
    }
  }

  readTokens(op: Operation): Token[] {
    if (op.op === "get") return [op.result as string | null];
    if (op.op === "listGet") return op.result as string[];
    return [];
  }

  search(ops: readonly Operation[], deadline: number): SearchResult {
    const timed: TimedOp<Operation>[] = ops.map((op) => ({
      op,
      call: op.invoke,
      ret: op.status === "ok" ? op.complete : (this.seenBy.get(op) ?? Number.POSITIVE_INFINITY),
    }));
    return searchLinearization(this.model, timed, deadline);
  }

  /** A smallest window of operations that is still not linearizable on its own. */
  shrink(deadline: number): Shrunk {
    let minimal = true;
    const illegal = (ops: readonly Operation[]) => {
      // Once the budget is spent, keep the window found so far.
      if (!minimal) return false;
      const result = this.search(ops, deadline);
      if (result === "unknown") minimal = false;
      return result === "illegal";
    };
    // Checked before building a candidate window: building one costs a copy of every read.
    const budgetLeft = () => minimal && performance.now() < deadline;
    const shrunk =
      this.kind === "string"
        ? { window: this.shrinkRegister(illegal) }
        : this.shrinkList(illegal, budgetLeft);
    return { ...shrunk, minimal };
  }

  /**
   * Only sub-histories closed under reads are tried: every read comes with all writes of the value
   * it returned. Restricting a linearization of the whole to such a subset leaves each read right
   * after the write it saw, so a closed subset that is not linearizable proves the whole is not.
   * First the shortest prefix in invoke order, then chunks and single operations are dropped while
   * the rest stays illegal.
   */
  shrinkRegister(illegal: (ops: readonly Operation[]) => boolean): Operation[] {
    const writesSeenBy = (op: Operation) =>
      op.op === "get" ? (this.writesOf.get(op.result as Token) ?? []) : [];
    const close = (ops: readonly Operation[]) => {
      const closed = new Set(ops);
      for (const op of ops) for (const write of writesSeenBy(op)) closed.add(write);
      return this.ops.filter((op) => closed.has(op));
    };
    const prune = (ops: readonly Operation[]) => {
      const present = new Set(ops);
      return ops.filter((op) => writesSeenBy(op).every((write) => present.has(write)));
    };
    let low = 1;
    let high = this.ops.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (illegal(close(this.ops.slice(0, middle)))) high = middle;
      else low = middle + 1;
    }
    return dropWhileIllegal(close(this.ops.slice(0, high)), (ops) => {
      const pruned = prune(ops);
      return illegal(pruned) ? pruned : undefined;
    });
  }

  /**
   * Projects the history onto a few list values: their appends and removes, and every read
   * restricted to them. Values are independent in the list's contents (a remove only counts its
   * own value), so a linearization of the whole projects onto one of
   * the projection: a projection that is not linearizable proves the whole is not. One value is
   * tried at a time first (a lost or resurrected element), then values are dropped from all of
   * them, then reads.
   */
  shrinkList(
    illegal: (ops: readonly Operation[]) => boolean,
    budgetLeft: () => boolean,
  ): { window: Operation[]; values: string[] } {
    const reads = this.ops.filter((op) => op.op === "listGet");
    const writes = this.ops.filter((op) => op.op !== "listGet");
    // The reads of the latest projection, back to the originals (only the last one is reported).
    const original = new Map<Operation, Operation>();
    // Each projection is a new object, so the model's per-read cache stays right.
    const project = (values: readonly string[], kept: readonly Operation[]) => {
      original.clear();
      const wanted = new Set(values);
      const projected = kept.map((read) => {
        const copy = { ...read, result: (read.result as string[]).filter((item) => wanted.has(item)) };
        original.set(copy, read);
        return copy;
      });
      return [...writes.filter((op) => wanted.has(op.value!)), ...projected];
    };
    const values = [...this.writesOf.keys()] as string[];
    const stillIllegal = (values: readonly string[], kept: readonly Operation[]) =>
      budgetLeft() && illegal(project(values, kept));
    const single = values.find((value) => stillIllegal([value], reads));
    const chosen =
      single !== undefined
        ? [single]
        : dropWhileIllegal(values, (kept) => (stillIllegal(kept, reads) ? kept : undefined));
    const keptReads = dropWhileIllegal(reads, (kept) => (stillIllegal(chosen, kept) ? kept : undefined));
    const window = project(chosen, keptReads).map((op) => original.get(op) ?? op);
    return { window: window.sort((a, b) => a.invoke - b.invoke), values: chosen };
  }

  /**
   * Reads that missed an acknowledged write completed before they began. Cheap, and each one a
   * proof of non-linearizability on its own, so they stand in for the search when it runs out of
   * time.
   */
  staleReads(): Violation[] {
    return this.kind === "string" ? this.staleRegisterReads() : this.staleListReads();
  }

  /**
   * String keys: the value read was overwritten before the read began — for every write it could
   * come from, an acknowledged set of another value began after it completed and completed before
   * the read began.
   */
  staleRegisterReads(): Violation[] {
    const acknowledged = this.ops
      .filter((op) => op.op === "set" && op.status === "ok")
      .sort((a, b) => a.complete - b.complete);
    // latestInvoke[i]: the acknowledged set with the latest invoke among the first i+1 to complete.
    const latestInvoke: Operation[] = [];
    for (const op of acknowledged) {
      const best = latestInvoke.at(-1);
      latestInvoke.push(best && best.invoke > op.invoke ? best : op);
    }
    const stale: Violation[] = [];
    // Reads come in invoke order, so the prefix of sets completed before each only grows.
    let count = 0;
    for (const read of this.ops) {
      if (read.op !== "get") continue;
      const token = read.result as Token;
      const sources = this.writesOf.get(token) ?? [];
      if (token !== null && sources.length === 0) continue;
      const lastSource = sources.reduce<Operation | undefined>(
        (best, op) => (best === undefined || effectEnd(op) > effectEnd(best) ? op : best),
        undefined,
      );
      const sourceEnd = lastSource ? effectEnd(lastSource) : Number.NEGATIVE_INFINITY;
      // Acknowledged sets completed before the read began: a prefix of `acknowledged`.
      while (count < acknowledged.length && acknowledged[count]!.complete < read.invoke) count++;
      const overwrite = count > 0 ? latestInvoke[count - 1]! : undefined;
      if (!overwrite || overwrite.invoke <= sourceEnd) continue;
      const where = `${read.bin}/${read.key}`;
      stale.push({
        kind: "stale-read",
        message: `get of ${where} returned ${JSON.stringify(token)} after an acknowledged set to ${JSON.stringify(overwrite.value)} that began after that value was written`,
        window: byInvoke(lastSource ? [lastSource, overwrite, read] : [overwrite, read]),
      });
    }
    return stale;
  }

  /**
   * List keys: the read lacks a value whose acknowledged append completed before the read began,
   * though no remove of that value began before the read completed.
   */
  staleListReads(): Violation[] {
    const firstAppended = new Map<string, Operation>();
    const firstRemoveInvoke = new Map<string, number>();
    for (const op of this.ops) {
      const value = op.value!;
      if (op.op === "listAppend" && op.status === "ok") {
        const known = firstAppended.get(value);
        if (!known || op.complete < known.complete) firstAppended.set(value, op);
      }
      if (op.op === "listRemove") {
        firstRemoveInvoke.set(
          value,
          Math.min(firstRemoveInvoke.get(value) ?? Number.POSITIVE_INFINITY, op.invoke),
        );
      }
    }
    const stale: Violation[] = [];
    for (const read of this.ops) {
      if (read.op !== "listGet") continue;
      const seen = new Set(read.result as string[]);
      for (const [value, append] of firstAppended) {
        if (append.complete >= read.invoke || seen.has(value)) continue;
        if ((firstRemoveInvoke.get(value) ?? Number.POSITIVE_INFINITY) < read.complete) continue;
        stale.push({
          kind: "stale-read",
          message: `listGet of ${read.bin}/${read.key} lacks ${JSON.stringify(value)}, appended (acknowledged) before it began and not removed before it ended`,
          window: [append, read],
        });
        break;
      }
    }
    return stale;
  }
}

const effectEnd = (op: Operation) => (op.status === "ok" ? op.complete : Number.POSITIVE_INFINITY);

/**
 * Drops chunks of `items`, halving the chunk size down to single items, whenever `attempt`
 * accepts what is left (it returns the possibly adjusted rest, or undefined to refuse).
 */
function dropWhileIllegal<T>(items: readonly T[], attempt: (rest: T[]) => T[] | undefined): T[] {
  let current = [...items];
  for (let chunk = Math.ceil(current.length / 2); chunk >= 1; chunk = Math.floor(chunk / 2)) {
    for (let start = 0; start < current.length; ) {
      const rest = [...current.slice(0, start), ...current.slice(start + chunk)];
      const accepted = rest.length < current.length ? attempt(rest) : undefined;
      if (accepted && accepted.length < current.length) current = accepted;
      else start += chunk;
    }
  }
  return current;
}
