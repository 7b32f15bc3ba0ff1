// Executes copy tasks: streams entries from every source and applies them to
// the target in batches. Applying is idempotent, so a copy may be retried or
// overlap with client writes (a union, never a replace: HAZARDS.md 5).
import type { Entry } from "@binring/core";
import type { Logger } from "pino";
import type { EntryPort } from "./keeper-ports.js";
import type { CopyTask } from "./repair-plan.js";

export interface CopyProgress {
  entriesCopied: number;
  /** UTF-8 bytes of the entries' bins, keys and values. */
  bytesCopied: number;
  tasksDone: number;
  tasksTotal: number;
}

/** Applies in flight per source: enough to keep the target busy while the source streams. */
const APPLIES_IN_FLIGHT = 4;

export interface CopyContext {
  channel(address: string): EntryPort;
  epoch(): bigint;
  batchSize: number;
  logger: Logger;
  progress: CopyProgress;
  /** Checked between batches: true stops the copy (this keeper no longer owns the work). */
  stop?: () => boolean;
  /** Awaited with each batch's bytes before it is applied: paces a rebalancing copy (rebalance-throttle.ts). */
  pace?: (bytes: number) => Promise<void>;
}

/**
 * Copies one task; resolves true when every source was copied completely.
 * One complete source is not enough: it may itself be a stand-in still being
 * repaired, or a backend filling after a restart, and only the union of every
 * live holder of a stretch is sure to hold each acknowledged entry (each is on
 * every replica that was live when it was acknowledged). A source that died
 * fails the task; the retry plans again without it once it is declared dead.
 */
export async function copyTask(task: CopyTask, context: CopyContext): Promise<boolean> {
  const outcomes = await Promise.all(
    task.sources.map(async (source) => {
      try {
        await copyFrom(source, task, context);
        return true;
      } catch (error) {
        context.logger.warn(
          { source, target: task.target, err: (error as Error).message },
          "copy from source failed",
        );
        return false;
      }
    }),
  );
  return outcomes.every(Boolean);
}

function entryBytes(entries: readonly Entry[]): number {
  let bytes = 0;
  for (const entry of entries)
    bytes += Buffer.byteLength(entry.bin) + Buffer.byteLength(entry.key) + Buffer.byteLength(entry.value);
  return bytes;
}

async function copyFrom(source: string, task: CopyTask, context: CopyContext): Promise<void> {
  const target = context.channel(task.target);
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  for await (const entries of context.channel(source).scan(task.ranges, context.batchSize, 600_000)) {
    if (failure) throw failure;
    if (context.stop?.()) throw new Error("copy stopped: the work was handed over");
    await context.pace?.(entryBytes(entries));
    const apply: Promise<void> = target.apply(entries, context.epoch(), 60_000).then(
      () => {
        context.progress.entriesCopied += entries.length;
        context.progress.bytesCopied += entryBytes(entries);
        inFlight.delete(apply);
      },
      (error: unknown) => {
        failure = error;
        inFlight.delete(apply);
      },
    );
    inFlight.add(apply);
    if (inFlight.size >= APPLIES_IN_FLIGHT) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (failure) throw failure;
}
