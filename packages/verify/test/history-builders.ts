// Terse constructors for hand-made histories in the checkers' tests.
import type { FinalRead, History, Operation, OpStatus } from "../src/history.js";

let nextId = 1;

interface Timing {
  /** [invoke, complete] in ms. */
  at: [number, number];
  process?: number;
  status?: OpStatus;
  bin?: string;
}

function op(fields: Partial<Operation> & Pick<Operation, "op">, timing: Timing, result: Operation["result"]) {
  const status = timing.status ?? "ok";
  const operation: Operation = {
    id: nextId++,
    process: timing.process ?? 0,
    bin: timing.bin ?? "b",
    invoke: timing.at[0],
    complete: timing.at[1],
    status,
    ...fields,
  };
  if (status === "ok") operation.result = result;
  else operation.error = status === "fail" ? "UNAVAILABLE" : "deadline exceeded";
  return operation;
}

export const set = (key: string, value: string, timing: Timing) =>
  op({ op: "set", key, value }, timing, true);
export const get = (key: string, result: string | null, timing: Timing) =>
  op({ op: "get", key }, timing, result);
export const append = (key: string, value: string, timing: Timing) =>
  op({ op: "listAppend", key, value }, timing, true);
export const remove = (key: string, value: string, result: number, timing: Timing) =>
  op({ op: "listRemove", key, value }, timing, result);
export const listGet = (key: string, result: string[], timing: Timing) =>
  op({ op: "listGet", key }, timing, result);
export const clock = (result: string, timing: Timing, atLeast?: string) =>
  op(atLeast === undefined ? { op: "clock" } : { op: "clock", atLeast }, timing, result);

export const finalString = (key: string, value: string | null, bin = "b"): FinalRead => ({
  bin,
  key,
  kind: "string",
  value,
});
export const finalList = (key: string, value: string[], bin = "b"): FinalRead => ({
  bin,
  key,
  kind: "list",
  value,
});

export function history(ops: Operation[], finals: FinalRead[] = []): History {
  return { ops, faults: [], finals };
}

/** The ids of a violation's window, finals shown as "final". */
export const windowIds = (window: (Operation | FinalRead)[]) =>
  window.map((entry) => ("id" in entry ? entry.id : "final"));
