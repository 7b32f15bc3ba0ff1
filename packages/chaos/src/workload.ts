// The chaos workload: N concurrent processes, each with its own BinClient (its
// own view of the cluster and of which backends answer, like separate users),
// issuing random operations over a few bins and keys so that they collide.
// Every operation is recorded with its invoke and complete time and outcome.
import { BinClient, type BinClientOptions } from "@binring/client";
import { TimeoutError } from "@binring/core";
import type { Logger } from "pino";
import type { HistoryWriter, OpName, OpRecord, OpStatus } from "./history.js";
import type { Random } from "./random.js";

export interface WorkloadKeys {
  bins: string[];
  /** String keys in every bin. */
  stringKeys: string[];
  /** List keys in every bin (lists and strings are separate namespaces; distinct names keep the history readable). */
  listKeys: string[];
}

export interface WorkloadOptions {
  backends: string[];
  keepers: string[];
  keys: WorkloadKeys;
  /** Concurrent processes, each with its own client. @default 16 */
  processes?: number;
  /** Mean pause between two operations of one process, so 16 processes leave CPU to the cluster. @default 10 */
  thinkMs?: number;
  /** Extra options for every process's client (deadlines, the test-only sabotage). */
  clientOptions?: Partial<BinClientOptions>;
  /** Where each process's client logs (with its process number): which backends it found unreachable, and why. */
  clientLogger?: Logger;
  random: Random;
  history: HistoryWriter;
}

/** How often each operation is chosen. */
const OP_WEIGHTS: readonly (readonly [OpName, number])[] = [
  ["set", 3],
  ["get", 3],
  ["listAppend", 2],
  ["listRemove", 1],
  ["listGet", 2],
  ["clock", 1],
];

/**
 * A list holding this many values the workload has not removed yet gets a
 * remove instead of an append: lists stay short, so a 10-minute soak's
 * history (every listGet records the whole list) stays small enough to check.
 */
const LIST_CAP = 24;

export interface WorkloadCounts {
  ok: number;
  fail: number;
  unknown: number;
}

export class Workload {
  readonly counts: WorkloadCounts = { ok: 0, fail: 0, unknown: 0 };
  readonly #options: WorkloadOptions;
  readonly #clients: BinClient[];
  /** "bin\u0000key" -> values appended to that list (by anyone) and not picked for a remove yet. */
  readonly #live = new Map<string, string[]>();
  #nextId = 0;
  #running = false;
  #processes: Promise<void>[] = [];

  constructor(options: WorkloadOptions) {
    this.#options = options;
    this.#clients = Array.from(
      { length: options.processes ?? 16 },
      (_, process) =>
        new BinClient({
          ...options.clientOptions,
          backends: options.backends,
          keepers: options.keepers,
          ...(options.clientLogger && { logger: options.clientLogger.child({ process }) }),
        }),
    );
  }

  start(): void {
    this.#running = true;
    this.#processes = this.#clients.map((client, process) =>
      this.#run(process, client, this.#options.random.split()),
    );
  }

  /** Stops issuing operations and waits for those in flight (each bounded by the client's deadline). */
  async stop(): Promise<void> {
    this.#running = false;
    await Promise.all(this.#processes);
    await Promise.all(this.#clients.map((client) => client.close()));
  }

  async #run(process: number, client: BinClient, random: Random): Promise<void> {
    const { keys, history } = this.#options;
    const thinkMs = this.#options.thinkMs ?? 10;
    while (this.#running) {
      let op = random.weighted(OP_WEIGHTS);
      const bin = random.pick(keys.bins);
      const id = this.#nextId++;
      const record: OpRecord = {
        type: "op",
        id,
        process,
        op,
        bin,
        invoke: 0,
        complete: 0,
        status: "ok",
      };
      if (op === "set" || op === "get") record.key = random.pick(keys.stringKeys);
      else if (op !== "clock") record.key = random.pick(keys.listKeys);
      const live = op === "listAppend" || op === "listRemove" ? this.#liveValues(bin, record.key!) : [];
      if (op === "listAppend" && live.length >= LIST_CAP) op = record.op = "listRemove";
      if (op === "set" || op === "listAppend") record.value = `p${process}-${id}`;
      if (op === "listAppend") live.push(record.value!);
      if (op === "listRemove") {
        // Mostly a value that is there (or on its way); on an empty list, one nobody wrote.
        record.value =
          live.length > 0 ? live.splice(random.int(0, live.length - 1), 1)[0]! : `p${process}-${id}`;
      }

      record.invoke = history.now();
      let status: OpStatus = "ok";
      try {
        record.result = await this.#invoke(client, record);
      } catch (error) {
        status = error instanceof TimeoutError ? "unknown" : "fail";
        record.error = (error as Error).message;
      }
      record.complete = history.now();
      record.status = status;
      this.counts[status]++;
      history.write(record);
      await new Promise((resolve) => setTimeout(resolve, random.int(0, 2 * thinkMs)));
    }
  }

  #liveValues(bin: string, key: string): string[] {
    const list = `${bin}\u0000${key}`;
    const live = this.#live.get(list) ?? [];
    this.#live.set(list, live);
    return live;
  }

  async #invoke(client: BinClient, record: OpRecord): Promise<OpRecord["result"]> {
    const bin = client.bin(record.bin);
    const key = record.key ?? "";
    const value = record.value ?? "";
    switch (record.op) {
      case "set":
        return bin.set(key, value);
      case "get":
        return bin.get(key);
      case "listAppend":
        return bin.listAppend(key, value);
      case "listRemove":
        return bin.listRemove(key, value);
      case "listGet":
        return bin.listGet(key);
      case "clock":
        return (await bin.clock()).toString();
    }
  }
}
