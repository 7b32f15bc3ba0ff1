import { describe, expect, it } from "vitest";
import { checkListLinearizability, checkRegisterLinearizability } from "../src/check-linearizability.js";
import type { Operation } from "../src/history.js";
import { type ListState, listModel, registerModel } from "../src/models.js";
import { ILLEGAL, type Model, searchLinearization, type TimedOp } from "../src/wgl-search.js";
import { append, get, history, listGet, remove, set } from "./history-builders.js";
import { seededRandom } from "./simulated-history.js";

const forever = () => performance.now() + 60_000;

/** Ops with fail/unknown status may take effect at any time after their call. */
const timed = (ops: Operation[]): TimedOp<Operation>[] =>
  ops.map((op) => ({
    op,
    call: op.invoke,
    ret: op.status === "ok" ? op.complete : Number.POSITIVE_INFINITY,
  }));

const register = (ops: Operation[], initial: string | null = null) =>
  searchLinearization(registerModel(initial), timed(ops), forever());

describe("register histories from Porcupine's test suite (initial value 0)", () => {
  it("put(100) overlapping get()->100 and get()->0 is linearizable", () => {
    const ops = [
      set("x", "100", { at: [0, 100] }),
      get("x", "100", { at: [25, 75] }),
      get("x", "0", { at: [30, 60] }),
    ];
    expect(register(ops, "0")).toBe("ok");
  });

  it("put(200), get()->200, then get()->0 after it is not", () => {
    const ops = [
      set("x", "200", { at: [0, 100] }),
      get("x", "200", { at: [10, 30] }),
      get("x", "0", { at: [40, 90] }),
    ];
    expect(register(ops, "0")).toBe("illegal");
  });
});

describe("register histories", () => {
  it("accepts the empty history and a read of the unset key", () => {
    expect(register([])).toBe("ok");
    expect(register([get("x", null, { at: [0, 1] })])).toBe("ok");
  });

  it("refuses a read of the old value after a write completed", () => {
    const ops = [
      set("x", "a", { at: [0, 10] }),
      set("x", "b", { at: [20, 30] }),
      get("x", "a", { at: [40, 50] }),
    ];
    expect(register(ops)).toBe("illegal");
  });

  it("lets concurrent writes land in either order, but only one", () => {
    const writes = () => [set("x", "a", { at: [0, 100] }), set("x", "b", { at: [0, 100] })];
    expect(register([...writes(), get("x", "a", { at: [10, 20] }), get("x", "b", { at: [30, 40] })])).toBe(
      "ok",
    );
    expect(register([...writes(), get("x", "b", { at: [10, 20] }), get("x", "a", { at: [30, 40] })])).toBe(
      "ok",
    );
    const flipFlop = [
      ...writes(),
      get("x", "a", { at: [10, 20] }),
      get("x", "b", { at: [30, 40] }),
      get("x", "a", { at: [50, 60] }),
    ];
    expect(register(flipFlop)).toBe("illegal");
  });

  it("treats operations that touch as concurrent", () => {
    expect(register([set("x", "a", { at: [0, 10] }), get("x", null, { at: [10, 20] })])).toBe("ok");
    expect(register([set("x", "a", { at: [0, 10] }), get("x", null, { at: [11, 20] })])).toBe("illegal");
  });

  it("lets an unknown write happen late or never, but not un-happen", () => {
    const unknown = () => set("x", "a", { at: [0, 5], status: "unknown" });
    expect(register([unknown(), get("x", null, { at: [100, 110] }), get("x", "a", { at: [200, 210] })])).toBe(
      "ok",
    );
    expect(register([unknown(), get("x", null, { at: [100, 110] })])).toBe("ok");
    expect(register([unknown(), get("x", "a", { at: [100, 110] }), get("x", null, { at: [200, 210] })])).toBe(
      "illegal",
    );
    // A read cannot see a write before it was invoked, known or not.
    expect(register([get("x", "a", { at: [0, 1] }), set("x", "a", { at: [5, 6], status: "fail" })])).toBe(
      "illegal",
    );
  });

  it("treats set to the empty string as a delete", () => {
    const ops = [set("x", "a", { at: [0, 1] }), set("x", "", { at: [2, 3] }), get("x", null, { at: [4, 5] })];
    expect(register(ops)).toBe("ok");
  });
});

describe("list histories", () => {
  const list = (ops: Operation[]) => searchLinearization(listModel(), timed(ops), forever());

  it("checks contents and remove counts, not order", () => {
    const ops = [
      append("l", "a", { at: [0, 1] }),
      append("l", "b", { at: [2, 3] }),
      listGet("l", ["a", "b"], { at: [4, 5] }),
      remove("l", "a", 1, { at: [6, 7] }),
      listGet("l", ["b"], { at: [8, 9] }),
    ];
    expect(list(ops)).toBe("ok");
    // The model is the list's contents: order is check-list-order.ts's (it used to be checked here).
    expect(list([...ops.slice(0, 2), listGet("l", ["b", "a"], { at: [4, 5] })])).toBe("ok");
    expect(list([...ops.slice(0, 2), listGet("l", ["b"], { at: [4, 5] })])).toBe("illegal");
    expect(list([...ops.slice(0, 2), listGet("l", ["a", "b", "b"], { at: [4, 5] })])).toBe("illegal");
    expect(list([append("l", "a", { at: [0, 1] }), remove("l", "a", 0, { at: [2, 3] })])).toBe("illegal");
  });

  it("keeps its state canonical: the same contents reached in different orders are one state", () => {
    const model = listModel();
    const step = (state: ListState, op: Operation) => model.step(state, op) as ListState;
    const a = append("l", "a", { at: [0, 1] });
    const b = append("l", "b", { at: [0, 1] });
    const ab = step(step(model.init(), a), b);
    const ba = step(step(model.init(), b), a);
    expect(model.equal(ab, ba)).toBe(true);
    expect(model.hash(ab)).toBe(model.hash(ba));
    const removed = step(ab, remove("l", "a", 1, { at: [2, 3] }));
    expect(model.equal(removed, step(model.init(), b))).toBe(true);
    expect(model.hash(removed)).toBe(model.hash(step(model.init(), b)));
    expect(model.equal(removed, ab)).toBe(false);
  });

  it("lets concurrent appends land in either order", () => {
    const ops = [
      append("l", "a", { at: [0, 10] }),
      append("l", "b", { at: [0, 10] }),
      listGet("l", ["b", "a"], { at: [11, 12] }),
    ];
    expect(list(ops)).toBe("ok");
  });
});

describe("time budget", () => {
  it("answers unknown instead of exploring an exponential history", () => {
    // 24 concurrent writes then a read of a value none wrote: every subset and order is tried.
    const ops = Array.from({ length: 24 }, (_, i) => set("x", `v${i}`, { at: [0, 100] }));
    ops.push(get("x", "nobody", { at: [200, 210] }));
    const started = performance.now();
    expect(searchLinearization(registerModel(), timed(ops), performance.now() + 200)).toBe("unknown");
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe("agrees with a brute-force search on random small histories", () => {
  /** Tries every order that respects real time (a before b when a returned before b was called). */
  function bruteForce<S>(model: Model<S, Operation>, history: TimedOp<Operation>[]): boolean {
    const placed = new Array<boolean>(history.length).fill(false);
    const extend = (state: S, count: number): boolean => {
      if (count === history.length) return true;
      return history.some((candidate, i) => {
        if (placed[i]) return false;
        // Every unplaced operation that returned before this one's call must come first.
        if (history.some((other, j) => !placed[j] && j !== i && other.ret < candidate.call)) return false;
        const next = model.step(state, candidate.op);
        if (next === ILLEGAL) return false;
        placed[i] = true;
        const found = extend(next, count + 1);
        placed[i] = false;
        return found;
      });
    };
    return extend(model.init(), 0);
  }

  /**
   * The list's contents written as plainly as possible, independent of listModel's sorted state
   * and digest: the brute force runs on this, so the cross-checks below test the model too.
   */
  const plainContents = (): Model<string[], Operation> => ({
    init: () => [],
    step(state, op) {
      if (op.op === "listAppend") return [...state, op.value!];
      if (op.op === "listRemove") {
        const kept = state.filter((item) => item !== op.value);
        return op.status === "ok" && op.result !== state.length - kept.length ? ILLEGAL : kept;
      }
      const sorted = (items: string[]) => JSON.stringify([...items].sort());
      return op.status !== "ok" || sorted(op.result as string[]) === sorted(state) ? state : ILLEGAL;
    },
    hash: (state) => JSON.stringify([...state].sort()),
    equal: (a, b) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort()),
  });

  it("registers", () => {
    const rand = seededRandom(42);
    let illegal = 0;
    for (let round = 0; round < 400; round++) {
      const values = ["a", "b", "c"];
      const ops: Operation[] = Array.from({ length: 2 + Math.floor(rand() * 5) }, () => {
        const start = Math.floor(rand() * 10);
        const timing = {
          at: [start, start + Math.floor(rand() * 5)] as [number, number],
          status: rand() < 0.15 ? ("unknown" as const) : ("ok" as const),
        };
        return rand() < 0.5
          ? set("x", values[Math.floor(rand() * 3)]!, timing)
          : get("x", rand() < 0.25 ? null : values[Math.floor(rand() * 3)]!, { ...timing, status: "ok" });
      });
      const expected = bruteForce(registerModel(), timed(ops));
      expect(register(ops), JSON.stringify(ops)).toBe(expected ? "ok" : "illegal");
      if (!expected) illegal++;
    }
    // Both outcomes were exercised.
    expect(illegal).toBeGreaterThan(50);
    expect(illegal).toBeLessThan(350);
  });

  it("the register checker, which drops unseen indefinite writes and bounds seen ones", () => {
    const rand = seededRandom(99);
    let failures = 0;
    for (let round = 0; round < 300; round++) {
      let written = 0;
      const ops: Operation[] = Array.from({ length: 2 + Math.floor(rand() * 5) }, () => {
        const start = Math.floor(rand() * 10);
        const at = [start, start + Math.floor(rand() * 5)] as [number, number];
        if (rand() < 0.5) {
          const status = rand() < 0.3 ? ("unknown" as const) : ("ok" as const);
          return set("x", `v${written++}`, { at, status });
        }
        return get("x", rand() < 0.2 ? null : `v${Math.floor(rand() * 4)}`, { at });
      });
      const expected = bruteForce(registerModel(), timed(ops));
      const verdict = checkRegisterLinearizability(history(ops));
      expect(verdict.result, JSON.stringify(ops)).toBe(expected ? "pass" : "fail");
      if (!expected) failures++;
    }
    expect(failures).toBeGreaterThan(30);
    expect(failures).toBeLessThan(270);
  });

  it("the list checker, which drops unseen indefinite writes and bounds seen ones", () => {
    const rand = seededRandom(123);
    let failures = 0;
    for (let round = 0; round < 300; round++) {
      let written = 0;
      const ops: Operation[] = Array.from({ length: 2 + Math.floor(rand() * 4) }, () => {
        const start = Math.floor(rand() * 10);
        const at = [start, start + Math.floor(rand() * 5)] as [number, number];
        const status = rand() < 0.3 ? ("unknown" as const) : ("ok" as const);
        const roll = rand();
        if (roll < 0.45) return append("l", `v${written++}`, { at, status });
        if (roll < 0.6)
          return remove("l", `v${Math.floor(rand() * 3)}`, Math.floor(rand() * 2), { at, status });
        const read = ["v0", "v1", "v2"].filter(() => rand() < 0.4);
        // Reversed reads are as good as any: order is the list-order checker's.
        return listGet("l", rand() < 0.2 ? [...read].reverse() : read, { at });
      });
      const expected = bruteForce(plainContents(), timed(ops));
      const verdict = checkListLinearizability(history(ops));
      expect(verdict.result, JSON.stringify(ops)).toBe(expected ? "pass" : "fail");
      if (!expected) failures++;
    }
    expect(failures).toBeGreaterThan(30);
    expect(failures).toBeLessThan(270);
  });

  it("lists", () => {
    const rand = seededRandom(7);
    let illegal = 0;
    for (let round = 0; round < 300; round++) {
      const values = ["a", "b"];
      const ops: Operation[] = Array.from({ length: 2 + Math.floor(rand() * 4) }, () => {
        const start = Math.floor(rand() * 10);
        const at = [start, start + Math.floor(rand() * 5)] as [number, number];
        const value = values[Math.floor(rand() * 2)]!;
        const roll = rand();
        if (roll < 0.4) return append("l", value, { at, status: rand() < 0.15 ? "unknown" : "ok" });
        if (roll < 0.55) return remove("l", value, Math.floor(rand() * 2), { at });
        const read = values.filter(() => rand() < 0.5);
        // Order must not matter; an element shown twice must (values are appended more than once here).
        const shown = rand() < 0.3 ? [...read].reverse() : read;
        return listGet("l", rand() < 0.15 && shown.length > 0 ? [...shown, shown[0]!] : shown, { at });
      });
      const expected = bruteForce(plainContents(), timed(ops));
      expect(searchLinearization(listModel(), timed(ops), forever()), JSON.stringify(ops)).toBe(
        expected ? "ok" : "illegal",
      );
      if (!expected) illegal++;
    }
    expect(illegal).toBeGreaterThan(30);
    expect(illegal).toBeLessThan(270);
  });
});
