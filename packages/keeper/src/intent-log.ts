// The commit point of repairs (HAZARDS.md 8). Before a keeper publishes a
// state change that needs copying, it records the work it is about to do as
// an intent; when the work is finished it records the intent's id as done.
// A keeper that takes a slice over reads the log first and finishes every
// intent of its slice that is not done, before it starts new work.
//
// The log is a reserved bin on the backends themselves, placed and repaired
// like any other bin: two lists of write-once elements ("intents" holds JSON
// intents, "done" their ids), appended with Apply and read with Scan — data
// calls refuse reserved bins (core/reserved-bins.ts), so no application can
// write into the log. Lists of unique elements make the log a grow-only set,
// so a read is the union over every backend that answers, whatever copies of
// the bin exist — stale, partial or moved. Each element is validated on its
// own: a bad one is skipped and logged, and hides nothing else.
import { type Entry, newWriterId, RESERVED_BIN_PREFIX, RING_SIZE, ringPoint } from "@binring/core";
import { type Logger, pino } from "pino";
import type { EntryPort } from "./keeper-ports.js";

export const KEEPER_LOG_BIN = `${RESERVED_BIN_PREFIX}keeper-log`;

/** The log bin's point alone: a Scan of it returns the log's entries (and those of any bin sharing the point). */
const LOG_RANGE = { start: ringPoint(KEEPER_LOG_BIN), end: (ringPoint(KEEPER_LOG_BIN) + 1) % RING_SIZE };

/** Entries per Scan message of the log. */
const LOG_SCAN_BATCH = 500;

export interface Intent {
  /** Unique per piece of work. */
  id: string;
  kind: "repair" | "fill";
  /** The backend that died (repair) or is being filled (fill): the intent belongs to its owner. */
  backend: string;
  /** Backends in placement before the change. */
  wasLive: string[];
  /** The keeper that recorded it. */
  by: string;
  /** Wall-clock ms when it was recorded (for operators). */
  at: number;
}

export interface LogContents {
  intents: Intent[];
  done: Set<string>;
}

/** The intent an element holds, or a reason it holds none. */
export function parseIntent(text: string): Intent | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "not JSON";
  }
  if (typeof value !== "object" || value === null) return "not an object";
  const v = value as Record<string, unknown>;
  if (typeof v.id !== "string" || v.id === "") return "no id";
  if (v.kind !== "repair" && v.kind !== "fill") return `kind ${JSON.stringify(v.kind)}`;
  if (typeof v.backend !== "string" || v.backend === "") return "no backend";
  if (!Array.isArray(v.wasLive) || !v.wasLive.every((b) => typeof b === "string")) return "wasLive";
  if (typeof v.by !== "string") return "no by";
  if (typeof v.at !== "number" || !Number.isFinite(v.at)) return "no at";
  return { id: v.id, kind: v.kind, backend: v.backend, wasLive: v.wasLive as string[], by: v.by, at: v.at };
}

/** The commit point (intent-log.ts): where intents and their completion are recorded. */
export interface IntentStore {
  /** Records on every target; resolves with how many took it. */
  record(intent: Intent, targets: readonly string[]): Promise<number>;
  complete(id: string, targets: readonly string[]): Promise<number>;
  /** The union of the log over every source that answers; throws when none does. */
  read(sources: readonly string[]): Promise<LogContents>;
}

export class IntentLog implements IntentStore {
  readonly #writer = newWriterId();
  #seq = 0;

  constructor(
    private readonly channel: (address: string) => EntryPort,
    private readonly timeoutMs: number,
    private readonly logger: Logger = pino({ level: "silent" }),
  ) {}

  /** Appends the intent on every target; resolves with how many took it. */
  record(intent: Intent, targets: readonly string[]): Promise<number> {
    return this.#append("intents", JSON.stringify(intent), targets);
  }

  complete(id: string, targets: readonly string[]): Promise<number> {
    return this.#append("done", id, targets);
  }

  /** The union of the log over every source that answers; throws when none does. */
  async read(sources: readonly string[]): Promise<LogContents> {
    const intents = new Map<string, Intent>();
    const done = new Set<string>();
    const answers = await Promise.all(
      sources.map(async (source) => {
        let lists: Map<string, string[]>;
        try {
          lists = await this.#lists(source);
        } catch {
          return false;
        }
        for (const text of lists.get("intents") ?? []) {
          const intent = parseIntent(text);
          if (typeof intent === "string") {
            this.logger.warn(
              { source, reason: intent, bytes: text.length },
              "skipped a bad keeper log entry",
            );
          } else intents.set(intent.id, intent);
        }
        for (const id of lists.get("done") ?? []) done.add(id);
        return true;
      }),
    );
    if (!answers.some(Boolean)) throw new Error("no backend answered a read of the keeper log");
    return { intents: [...intents.values()], done };
  }

  /**
   * The log's lists on one backend. The log is grow-only: its elements are
   * appends, and a remove (which no keeper writes) is ignored, so it cannot
   * hide an intent.
   */
  async #lists(source: string): Promise<Map<string, string[]>> {
    const lists = new Map<string, string[]>();
    for await (const batch of this.channel(source).scan([LOG_RANGE], LOG_SCAN_BATCH, this.timeoutMs)) {
      for (const entry of batch) {
        if (entry.bin !== KEEPER_LOG_BIN || entry.kind !== "append") continue;
        const list = lists.get(entry.key) ?? [];
        list.push(entry.value);
        lists.set(entry.key, list);
      }
    }
    return lists;
  }

  async #append(key: string, value: string, targets: readonly string[]): Promise<number> {
    this.#seq = (this.#seq + 1) >>> 0;
    // The clock of a log entry orders nothing (its elements are unique), so it stays low and never drags backend clocks up.
    const entry: Entry = {
      bin: KEEPER_LOG_BIN,
      key,
      kind: "append",
      value,
      stamp: { clock: 1n, writer: this.#writer, seq: this.#seq },
    };
    const outcomes = await Promise.all(
      targets.map((target) =>
        this.channel(target)
          .apply([entry], 0n, this.timeoutMs)
          .then(
            () => true,
            () => false,
          ),
      ),
    );
    return outcomes.filter(Boolean).length;
  }
}
