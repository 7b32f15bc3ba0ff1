// Sequential models of a bin's string key (a register) and list key, for the linearizability
// search. An operation with status fail or unknown has no result to match: only its effect counts.
import type { Operation } from "./history.js";
import { ILLEGAL, type Model } from "./wgl-search.js";

/** A string key: set("") deletes it, get returns null when unset. */
export function registerModel(initial: string | null = null): Model<string | null, Operation> {
  return {
    init: () => initial,
    step(state, op) {
      if (op.op === "set") return op.value === "" ? null : op.value!;
      if (op.op === "get") return op.status !== "ok" || op.result === state ? state : ILLEGAL;
      throw new Error(`register model cannot apply ${op.op}`);
    },
    hash: (state) => (state === null ? "\u0000" : `=${state}`),
    equal: (a, b) => a === b,
  };
}

/**
 * A list key's contents, as a multiset: elements sorted (canonical, so that equal contents are
 * equal states) with a digest that sums the elements' hashes, kept up to date on every step so that
 * `hash` is O(1).
 */
export interface ListState {
  readonly items: readonly string[];
  readonly digest: number;
}

/**
 * A list key's contents: append adds the element, remove deletes every occurrence and returns how
 * many, listGet returns exactly the current elements in any order. Order is not part of this model:
 * binring promises that concurrent appends may show in any order while in flight and in one stable
 * order once returned, which check-list-order.ts checks on its own.
 */
export function listModel(): Model<ListState, Operation> {
  const hashes = new Map<string, number>();
  const hashOf = (item: string) => {
    let hash = hashes.get(item);
    if (hash === undefined) {
      hash = fnv1a(item);
      hashes.set(item, hash);
    }
    return hash;
  };
  // The search tries the same read against many states: its digest and set are made once, and the
  // digest turns most states away in O(1).
  const reads = new WeakMap<Operation, ReadContents>();
  const contentsOf = (op: Operation) => {
    let contents = reads.get(op);
    if (!contents) {
      const result = op.result as string[];
      const digest = result.reduce((sum, item) => (sum + hashOf(item)) >>> 0, 0);
      const distinct = new Set(result);
      contents =
        distinct.size === result.length
          ? { length: result.length, digest, distinct }
          : { length: result.length, digest, sorted: [...result].sort() };
      reads.set(op, contents);
    }
    return contents;
  };
  return {
    init: () => ({ items: [], digest: 0 }),
    step(state, op) {
      switch (op.op) {
        case "listAppend": {
          const value = op.value!;
          const items = [...state.items];
          items.splice(insertionPoint(items, value), 0, value);
          return { items, digest: (state.digest + hashOf(value)) >>> 0 };
        }
        case "listRemove": {
          const items = state.items.filter((item) => item !== op.value);
          const removed = state.items.length - items.length;
          if (op.status === "ok" && op.result !== removed) return ILLEGAL;
          if (removed === 0) return state;
          return { items, digest: (state.digest - removed * hashOf(op.value!)) >>> 0 };
        }
        case "listGet": {
          if (op.status !== "ok") return state;
          if ((op.result as string[]).length !== state.items.length) return ILLEGAL;
          return holdsExactly(state, contentsOf(op)) ? state : ILLEGAL;
        }
        default:
          throw new Error(`list model cannot apply ${op.op}`);
      }
    },
    hash: (state) => `${state.items.length}:${state.digest}`,
    equal: (a, b) => a.digest === b.digest && sameItems(a.items, b.items),
  };
}

/** A read's result, ready to compare with states: its set when its elements are distinct. */
type ReadContents = { length: number; digest: number } & (
  | { distinct: ReadonlySet<string> }
  | { sorted: readonly string[] }
);

/** Whether the state's elements are the read's, counted with multiplicity. */
function holdsExactly(state: ListState, read: ReadContents): boolean {
  const items = state.items;
  if (items.length !== read.length || state.digest !== read.digest) return false;
  if ("sorted" in read) return sameItems(items, read.sorted);
  // Same size, the state's elements distinct (adjacent when sorted) and all in the read's set.
  return items.every((item, i) => read.distinct.has(item) && (i === 0 || item !== items[i - 1]));
}

const sameItems = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);

/** Where `value` goes in sorted `items`, after any equal elements (binary search). */
function insertionPoint(items: readonly string[], value: string): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (items[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** 32-bit FNV-1a over UTF-16 code units: a cheap, well-spread hash for the digest. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
