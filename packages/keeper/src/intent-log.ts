// The commit point of repairs (HAZARDS.md 8). Before a keeper publishes a
// state change that needs copying, it records the work it is about to do as
// an intent; when the work is finished it records the intent's id as done.
// A keeper that takes a slice over reads the log first and finishes every
// intent of its slice that is not done, before it starts new work.
//
// The log is a reserved bin on the backends themselves, placed and repaired
// like any other bin: two lists of write-once elements ("intents" holds JSON
// intents, "done" their ids), appended with Apply. Lists of unique elements
// make the log a grow-only set, so a read is the union over every backend that
// answers, whatever copies of the bin exist — stale, partial or moved.
import type { BackendChannel } from "@binring/client";
import { type Entry, newWriterId } from "@binring/core";

/** The reserved bin: a NUL-prefixed name no application is expected to use. */
export const KEEPER_LOG_BIN = "\u0000binring/keeper-log";

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

export class IntentLog {
  readonly #writer = newWriterId();
  #seq = 0;

  constructor(
    private readonly channel: (address: string) => BackendChannel,
    private readonly timeoutMs: number,
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
        try {
          const [recorded, finished] = await Promise.all([
            this.#list(source, "intents"),
            this.#list(source, "done"),
          ]);
          for (const text of recorded) {
            const intent = JSON.parse(text) as Intent;
            intents.set(intent.id, intent);
          }
          for (const id of finished) done.add(id);
          return true;
        } catch {
          return false;
        }
      }),
    );
    if (!answers.some(Boolean)) throw new Error("no backend answered a read of the keeper log");
    return { intents: [...intents.values()], done };
  }

  async #list(source: string, key: string): Promise<string[]> {
    const { listGet } = await this.channel(source).execute({
      listGet: { target: { bin: KEEPER_LOG_BIN, epoch: "0", requireReady: false }, key },
    });
    return listGet?.values ?? [];
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
