// The operation history a chaos run writes, one JSON object per line, in the
// format the checkers read (docs/HISTORY-FORMAT.md): a meta line, then op,
// fault and final records. Times are milliseconds since the run started, on
// one clock (this process's performance.now()).
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { dirname } from "node:path";
import type { NetworkAction } from "./network-schedule.js";

export type OpName = "set" | "get" | "listAppend" | "listRemove" | "listGet" | "clock";
export type OpStatus = "ok" | "fail" | "unknown";

export interface OpRecord {
  type: "op";
  id: number;
  process: number;
  op: OpName;
  bin: string;
  key?: string;
  /** The argument of set, listAppend and listRemove. */
  value?: string;
  invoke: number;
  complete: number;
  status: OpStatus;
  /** When status is "ok": true, string | null, number, string[] or a decimal clock. */
  result?: boolean | string | null | number | string[];
  /** When status is not "ok". */
  error?: string;
}

export type FaultAction =
  | "kill-backend"
  | "restart-backend"
  | "kill-keeper"
  | "restart-keeper"
  | "pause"
  | "resume"
  | "wipe-redis"
  /** Membership: a backend added to the ring, one asked to leave it, one stopped once it left. */
  | "add-backend"
  | "remove-backend"
  | "retire-backend"
  | NetworkAction
  /** A network fault's cut or slow link undone. */
  | "reconnect"
  | "heal";

/** Writes a fault (or a recovery) to the history and the log. */
export type FaultRecorder = (action: FaultAction, target: string, detail?: string) => void;

export interface FaultRecord {
  type: "fault";
  time: number;
  action: FaultAction;
  target: string;
  detail?: string;
}

export interface FinalRecord {
  type: "final";
  bin: string;
  key: string;
  kind: "string" | "list";
  value: string | null | string[];
}

export interface MetaRecord {
  type: "meta";
  seed: number;
  started: string;
  config: Record<string, unknown>;
  processes: number;
}

export type HistoryRecord = MetaRecord | OpRecord | FaultRecord | FinalRecord;

/** Appends records to a JSONL file; `now()` is the history's clock. */
export class HistoryWriter {
  readonly #stream: WriteStream;
  readonly #startedAt = performance.now();
  #count = 0;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.#stream = createWriteStream(path, { flags: "w" });
  }

  /** Milliseconds since the run started, rounded to 0.1 ms. */
  now(): number {
    return Math.round((performance.now() - this.#startedAt) * 10) / 10;
  }

  get count(): number {
    return this.#count;
  }

  write(record: HistoryRecord): void {
    this.#count++;
    this.#stream.write(`${JSON.stringify(record)}\n`);
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#stream.end((error?: Error | null) => (error ? reject(error) : resolve()));
    });
  }
}
