// The operation history a chaos workload records and the checkers read: its
// types and a streaming JSON-lines parser that validates every line.
//
// Format (one JSON object per line; blank lines are ignored; unknown extra fields are kept out of
// the parsed objects and ignored). Times are milliseconds since the run started, on one clock.
//
//   {"type":"meta","seed":42,"started":"2026-11-23T01:00:00Z","config":{...},"processes":16}
//       at most one, and only as the first line; every field optional.
//   {"type":"op","id":17,"process":3,"op":"set","bin":"b1","key":"k2","value":"p3-17",
//    "invoke":1203.5,"complete":1207.9,"status":"ok","result":true}
//       op: set | get | listAppend | listRemove | listGet | clock
//       key: required except for clock; value: required for set, listAppend, listRemove;
//       atLeast (clock only, optional): a decimal string.
//       status: ok | fail | unknown. fail and unknown writes may or may not have taken effect.
//       result (required when ok): set, listAppend -> true; get -> string | null;
//       listRemove -> a non-negative integer; listGet -> string[]; clock -> a decimal string.
//       error (optional, when not ok): the message. complete >= invoke; for unknown, when the
//       client gave up.
//   {"type":"fault","time":5001.2,"action":"kill-backend","target":"backend-2","detail":"..."}
//       target and detail optional.
//   {"type":"final","bin":"b1","key":"k2","kind":"string","value":"p3-17"}    value null when unset
//   {"type":"final","bin":"b1","key":"l1","kind":"list","value":["p1-3","p2-9"]}
//       read after faults stopped and the cluster healed; at most one per (bin, kind, key).
//
// Values written are unique per write (`p<process>-<id>`), so a read names the write it saw.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

export type OpKind = "set" | "get" | "listAppend" | "listRemove" | "listGet" | "clock";
export type OpStatus = "ok" | "fail" | "unknown";

export interface Operation {
  id: number;
  process: number;
  op: OpKind;
  bin: string;
  /** Absent only for clock. */
  key?: string;
  /** The argument of set, listAppend and listRemove. */
  value?: string;
  /** clock's argument, a decimal string. */
  atLeast?: string;
  invoke: number;
  complete: number;
  status: OpStatus;
  /** Present exactly when status is ok; its type follows `op` (see the file comment). */
  result?: boolean | string | null | number | string[];
  error?: string;
}

export interface Fault {
  time: number;
  action: string;
  target?: string;
  detail?: string;
}

export interface FinalRead {
  bin: string;
  key: string;
  kind: "string" | "list";
  value: string | null | string[];
}

export interface HistoryMeta {
  seed?: number;
  started?: string;
  config?: unknown;
  processes?: number;
}

export interface History {
  meta?: HistoryMeta;
  ops: Operation[];
  faults: Fault[];
  finals: FinalRead[];
}

/** A line of the history that does not follow the format; the message names the line and field. */
export class HistoryFormatError extends Error {
  constructor(
    readonly line: number,
    readonly field: string | undefined,
    problem: string,
  ) {
    super(`history line ${line}: ${field === undefined ? "" : `"${field}" `}${problem}`);
    this.name = "HistoryFormatError";
  }
}

const OP_KINDS: ReadonlySet<string> = new Set(["set", "get", "listAppend", "listRemove", "listGet", "clock"]);
const STATUSES: ReadonlySet<string> = new Set(["ok", "fail", "unknown"]);
const DECIMAL = /^\d+$/;

/** Accumulates a history line by line, so files of any length are read in one pass. */
export class HistoryBuilder {
  readonly #history: History = { ops: [], faults: [], finals: [] };
  readonly #finalKeys = new Set<string>();
  #lines = 0;
  #sawRecord = false;

  /** Parses and validates one line; throws HistoryFormatError naming the line and the field. */
  addLine(text: string): void {
    const line = ++this.#lines;
    if (text.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new HistoryFormatError(line, undefined, `is not JSON (${(error as Error).message})`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new HistoryFormatError(line, undefined, "must be a JSON object");
    }
    const record = new RecordReader(line, parsed as Record<string, unknown>);
    const type = record.string("type");
    const first = !this.#sawRecord;
    this.#sawRecord = true;
    switch (type) {
      case "meta":
        if (!first) throw new HistoryFormatError(line, "type", "meta may only be the first line");
        this.#history.meta = record.meta();
        return;
      case "op":
        this.#history.ops.push(record.operation());
        return;
      case "fault":
        this.#history.faults.push(record.fault());
        return;
      case "final": {
        const final = record.final();
        const id = JSON.stringify([final.bin, final.kind, final.key]);
        if (this.#finalKeys.has(id)) {
          throw new HistoryFormatError(line, "key", `is a second final read of ${final.kind} ${id}`);
        }
        this.#finalKeys.add(id);
        this.#history.finals.push(final);
        return;
      }
      default:
        throw new HistoryFormatError(
          line,
          "type",
          `must be "meta", "op", "fault" or "final", got ${JSON.stringify(type)}`,
        );
    }
  }

  build(): History {
    return this.#history;
  }
}

/** Parses a whole history held in memory. */
export function parseHistory(text: string): History {
  const builder = new HistoryBuilder();
  for (const line of text.split("\n")) builder.addLine(line);
  return builder.build();
}

/** Streams a history file line by line. */
export async function readHistory(path: string): Promise<History> {
  const builder = new HistoryBuilder();
  const lines = createInterface({ input: createReadStream(path, { encoding: "utf8" }), crlfDelay: Infinity });
  for await (const line of lines) builder.addLine(line);
  return builder.build();
}

/** Typed field access on one parsed line; every failure names the field. */
class RecordReader {
  constructor(
    readonly line: number,
    readonly record: Record<string, unknown>,
  ) {}

  fail(field: string, problem: string): never {
    throw new HistoryFormatError(this.line, field, problem);
  }

  got(field: string): string {
    const value = this.record[field];
    return value === undefined ? "nothing" : JSON.stringify(value);
  }

  string(field: string): string {
    const value = this.record[field];
    if (typeof value !== "string") this.fail(field, `must be a string, got ${this.got(field)}`);
    return value;
  }

  optionalString(field: string): string | undefined {
    return this.record[field] === undefined ? undefined : this.string(field);
  }

  number(field: string): number {
    const value = this.record[field];
    if (typeof value !== "number" || !Number.isFinite(value)) {
      this.fail(field, `must be a finite number, got ${this.got(field)}`);
    }
    return value;
  }

  integer(field: string): number {
    const value = this.number(field);
    if (!Number.isSafeInteger(value) || value < 0) {
      this.fail(field, `must be a non-negative integer, got ${this.got(field)}`);
    }
    return value;
  }

  stringArray(field: string): string[] {
    const value = this.record[field];
    if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
      this.fail(field, `must be an array of strings, got ${this.got(field)}`);
    }
    return value;
  }

  decimal(field: string): string {
    const value = this.string(field);
    if (!DECIMAL.test(value)) this.fail(field, `must be a decimal integer string, got ${this.got(field)}`);
    return value;
  }

  meta(): HistoryMeta {
    const meta: HistoryMeta = {};
    if (this.record.seed !== undefined) meta.seed = this.number("seed");
    if (this.record.started !== undefined) meta.started = this.string("started");
    if (this.record.config !== undefined) meta.config = this.record.config;
    if (this.record.processes !== undefined) meta.processes = this.integer("processes");
    return meta;
  }

  operation(): Operation {
    const op = this.string("op");
    if (!OP_KINDS.has(op)) {
      this.fail("op", `must be one of ${[...OP_KINDS].join(", ")}, got ${this.got("op")}`);
    }
    const kind = op as OpKind;
    const status = this.string("status");
    if (!STATUSES.has(status)) this.fail("status", `must be ok, fail or unknown, got ${this.got("status")}`);
    const operation: Operation = {
      id: this.integer("id"),
      process: this.integer("process"),
      op: kind,
      bin: this.string("bin"),
      invoke: this.number("invoke"),
      complete: this.number("complete"),
      status: status as OpStatus,
    };
    if (operation.complete < operation.invoke) {
      this.fail("complete", `(${operation.complete}) is before invoke (${operation.invoke})`);
    }
    if (kind === "clock") {
      const key = this.optionalString("key");
      if (key !== undefined) operation.key = key;
      if (this.record.atLeast !== undefined) operation.atLeast = this.decimal("atLeast");
    } else {
      operation.key = this.string("key");
    }
    if (kind === "set" || kind === "listAppend" || kind === "listRemove") {
      operation.value = this.string("value");
    }
    if (status === "ok") {
      operation.result = this.result(kind);
    } else {
      if (this.record.result !== undefined) this.fail("result", `must be absent when status is ${status}`);
      const error = this.optionalString("error");
      if (error !== undefined) operation.error = error;
    }
    return operation;
  }

  result(kind: OpKind): Operation["result"] {
    const value = this.record.result;
    switch (kind) {
      case "set":
      case "listAppend":
        if (value !== true) this.fail("result", `of an ok ${kind} must be true, got ${this.got("result")}`);
        return true;
      case "get":
        if (value !== null && typeof value !== "string") {
          this.fail("result", `of an ok get must be a string or null, got ${this.got("result")}`);
        }
        return value;
      case "listRemove":
        return this.integer("result");
      case "listGet":
        return this.stringArray("result");
      case "clock":
        return this.decimal("result");
    }
  }

  fault(): Fault {
    const fault: Fault = { time: this.number("time"), action: this.string("action") };
    const target = this.optionalString("target");
    if (target !== undefined) fault.target = target;
    const detail = this.optionalString("detail");
    if (detail !== undefined) fault.detail = detail;
    return fault;
  }

  final(): FinalRead {
    const kind = this.string("kind");
    const bin = this.string("bin");
    const key = this.string("key");
    if (kind === "string") {
      const value = this.record.value;
      if (value !== null && typeof value !== "string") {
        this.fail("value", `of a final string must be a string or null, got ${this.got("value")}`);
      }
      return { bin, key, kind, value };
    }
    if (kind === "list") return { bin, key, kind, value: this.stringArray("value") };
    return this.fail("kind", `must be "string" or "list", got ${this.got("kind")}`);
  }
}
