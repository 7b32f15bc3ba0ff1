// The Wing–Gong–Lowe linearizability search with Lowe's memoisation, as in Porcupine: one
// history of one object (one partition), against a sequential model.
//
// The history becomes a doubly linked list of call and return events in time order (calls before
// returns at equal times, so operations that merely touch are concurrent). The search walks the
// list: at a call it tries to linearize that operation now — if the model accepts it and the pair
// (set of linearized operations, model state) was never reached before, the operation is lifted out
// of the list and the search restarts from the head; at a return it has met an operation that
// should have been linearized already, so it backtracks the last choice. An operation that may or
// may not have happened (status fail or unknown) returns at +Infinity: it can be linearized at any
// point after its call, including after everything else, where it changes nothing anyone saw.

/** A sequential model of one object. `step` returns ILLEGAL when the operation cannot happen. */
export interface Model<State, Op> {
  init(): State;
  step(state: State, op: Op): State | typeof ILLEGAL;
  /** A short digest of the state: equal states have equal digests (part of the memo key). */
  hash(state: State): string;
  equal(a: State, b: State): boolean;
}

export const ILLEGAL: unique symbol = Symbol("illegal");

export interface TimedOp<Op> {
  op: Op;
  call: number;
  /** +Infinity for an operation that may take effect at any time after its call. */
  ret: number;
}

export type SearchResult = "ok" | "illegal" | "unknown";

const NIL = -1;
/** How many search steps run between two looks at the clock. */
const STEPS_PER_DEADLINE_CHECK = 512;

/**
 * Decides whether `history` is linearizable under `model`; "unknown" when `deadline`
 * (a performance.now() value) passes first.
 */
export function searchLinearization<State, Op>(
  model: Model<State, Op>,
  history: readonly TimedOp<Op>[],
  deadline: number,
): SearchResult {
  const n = history.length;
  if (n === 0) return "ok";
  // Events 1..2n; index 0 is the list's head sentinel.
  const events: { time: number; call: boolean; op: number }[] = [];
  history.forEach((timed, op) => {
    events.push({ time: timed.call, call: true, op }, { time: timed.ret, call: false, op });
  });
  events.sort((a, b) => a.time - b.time || (a.call === b.call ? 0 : a.call ? -1 : 1) || a.op - b.op);
  const size = 2 * n + 1;
  const next = new Int32Array(size);
  const prev = new Int32Array(size);
  const opOf = new Int32Array(size);
  const isCall = new Uint8Array(size);
  const match = new Int32Array(size);
  const returnOf = new Int32Array(n);
  for (let i = 0; i < 2 * n; i++) {
    const event = events[i]!;
    const index = i + 1;
    opOf[index] = event.op;
    isCall[index] = event.call ? 1 : 0;
    if (!event.call) returnOf[event.op] = index;
    prev[index] = i;
    next[index] = i + 2 < size ? i + 2 : NIL;
  }
  next[0] = 1;
  prev[0] = NIL;
  for (let index = 1; index < size; index++) if (isCall[index]) match[index] = returnOf[opOf[index]!]!;

  const lift = (call: number) => {
    next[prev[call]!] = next[call]!;
    prev[next[call]!] = prev[call]!;
    const ret = match[call]!;
    next[prev[ret]!] = next[ret]!;
    if (next[ret] !== NIL) prev[next[ret]!] = prev[ret]!;
  };
  const unlift = (call: number) => {
    const ret = match[call]!;
    if (next[ret] !== NIL) prev[next[ret]!] = ret;
    next[prev[ret]!] = ret;
    prev[next[call]!] = call;
    next[prev[call]!] = call;
  };

  // The set of linearized operations, with a 64-bit digest kept up to date as bits flip: the memo
  // is keyed by digests and compares the full bitset and state only on a digest match.
  const linearized = new Uint32Array(Math.ceil(n / 32));
  let digestHigh = 0;
  let digestLow = 0;
  const flip = (op: number) => {
    linearized[op >>> 5]! ^= 1 << (op & 31);
    digestHigh ^= mix(op * 2 + 1);
    digestLow ^= mix(op * 2 + 2);
  };
  const seen = new Map<string, { bits: Uint32Array; state: State }[]>();
  /** Records (linearized, state) and says whether it is new. */
  const remember = (state: State): boolean => {
    const key = `${digestHigh},${digestLow},${model.hash(state)}`;
    const bucket = seen.get(key);
    if (!bucket) {
      seen.set(key, [{ bits: linearized.slice(), state }]);
      return true;
    }
    const known = bucket.some(
      (entry) => model.equal(entry.state, state) && entry.bits.every((word, i) => word === linearized[i]),
    );
    if (!known) bucket.push({ bits: linearized.slice(), state });
    return !known;
  };
  const stackCalls: number[] = [];
  const stackStates: State[] = [];
  let state = model.init();
  let entry = next[0]!;
  let steps = 0;
  while (next[0] !== NIL) {
    if (++steps % STEPS_PER_DEADLINE_CHECK === 0 && performance.now() > deadline) return "unknown";
    if (isCall[entry]) {
      const op = opOf[entry]!;
      const after = model.step(state, history[op]!.op);
      if (after !== ILLEGAL) {
        flip(op);
        if (remember(after)) {
          stackCalls.push(entry);
          stackStates.push(state);
          state = after;
          lift(entry);
          entry = next[0]!;
          continue;
        }
        flip(op);
      }
      entry = next[entry]!;
    } else {
      // An operation returned before we found a place for it: undo the last choice.
      const call = stackCalls.pop();
      if (call === undefined) return "illegal";
      state = stackStates.pop()!;
      flip(opOf[call]!);
      unlift(call);
      entry = next[call]!;
    }
  }
  return "ok";
}

/** A well-mixed 32-bit value for an integer (the murmur3 finaliser). */
function mix(value: number): number {
  let h = Math.imul(value ^ (value >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
