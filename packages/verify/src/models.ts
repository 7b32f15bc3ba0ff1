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

/** A list key: append adds at the end, remove deletes every occurrence and returns how many. */
export function listModel(): Model<readonly string[], Operation> {
  return {
    init: () => [],
    step(state, op) {
      switch (op.op) {
        case "listAppend":
          return [...state, op.value!];
        case "listRemove": {
          const kept = state.filter((item) => item !== op.value);
          if (op.status === "ok" && op.result !== state.length - kept.length) return ILLEGAL;
          return kept;
        }
        case "listGet": {
          if (op.status !== "ok") return state;
          const read = op.result as string[];
          return read.length === state.length && read.every((item, i) => item === state[i]) ? state : ILLEGAL;
        }
        default:
          throw new Error(`list model cannot apply ${op.op}`);
      }
    },
    hash: (state) => `${state.length}:${state.at(-1) ?? ""}`,
    equal: (a, b) => a.length === b.length && a.every((item, i) => item === b[i]),
  };
}
