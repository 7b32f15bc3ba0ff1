// Executes copy tasks: streams entries from every source and applies them to
// the target in batches. Applying is idempotent, so a copy may be retried or
// overlap with client writes (a union, never a replace: HAZARDS.md 5). The
// sources of a task mostly hold the same entries; each is applied once, not
// once per source (TaskEntries). Entries stay encoded from the sources' Scan
// replies to the target's Apply requests (core's entry-frames.ts): the keeper
// never decodes them.
import { type EntryFrame, LIMIT_CEILINGS, MAX_TIMER_MS, MESSAGE_BUDGET_BYTES } from "@binring/core";
import type { Logger } from "pino";
import type { EntryPort } from "./keeper-ports.js";
import type { CopyTask } from "./repair-plan.js";

export interface CopyProgress {
  entriesCopied: number;
  /** Bytes applied: the entries as encoded on the wire (bins, keys, values, stamps and framing). */
  bytesCopied: number;
  tasksDone: number;
  tasksTotal: number;
  /** Entries a source streamed that another source of the same task had already sent the target. */
  duplicatesSkipped: number;
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
  /**
   * Awaited with the bytes of each batch about to be applied to the target
   * (entries another source already sent it not counted): paces a rebalancing
   * copy (rebalance-throttle.ts).
   */
  pace?: (bytes: number) => Promise<void>;
  /**
   * Bytes per second each source of a task is asked to read
   * (ScanRequest.bytes_per_second): `pace` alone lets a source read a whole
   * task ahead of it, into the stream's buffers. Undefined: unpaced.
   */
  readRate?: number;
}

/**
 * Most entries per Scan message of a paced copy: each source reads and sends
 * in steps at its rate rather than the copy's whole batch at once, which held
 * up client calls on it and on the target each time. Smaller steps cost more
 * per entry, since every step wakes the source, the keeper and the target:
 * 250 took a third more CPU per entry copied than 1000, with the foreground's
 * tail no better (bench/results/NOTES.md).
 */
export const PACED_BATCH_SIZE = 1000;

/** How long a source may send nothing before its copy fails: a Scan has no deadline, however long it runs. */
const SCAN_IDLE_TIMEOUT_MS = 60_000;

/**
 * A source's silence that fails its copy: at a slow rate, the wait after its
 * largest message (the budget plus one largest value) may pass the floor.
 */
export function scanIdleTimeoutMs(rate: number): number {
  if (rate === 0) return SCAN_IDLE_TIMEOUT_MS;
  const largestMessage = MESSAGE_BUDGET_BYTES + LIMIT_CEILINGS.maxValueBytes;
  return Math.min(
    MAX_TIMER_MS,
    Math.max(SCAN_IDLE_TIMEOUT_MS, Math.ceil((2 * largestMessage * 1000) / rate)),
  );
}

/** The largest rate a Scan request carries (a uint32); faster is as good as unpaced. */
const MAX_SCAN_RATE = 2 ** 32 - 1;

/**
 * What each source of a paced copy is asked to read at most, per second: its
 * task's share of the rate, also beside the stretch's other holders, as each holds about the
 * whole stretch and the copy applies each entry once (TaskEntries), so a copy
 * lands at about the rate either way; 0 unpaced.
 */
export function sourceRate(readRate: number | undefined): number {
  if (readRate === undefined) return 0;
  return Math.min(MAX_SCAN_RATE, Math.max(1, Math.floor(readRate)));
}

/**
 * Copies one task; resolves true once it is complete. A task with a
 * `firstHolder` first reads that one alone, asking it to be ready throughout
 * (repair-plan.ts says why that suffices). Otherwise, or when that fails, it
 * reads every source, and is complete when each was copied completely: one
 * source of unknown readiness is not enough, as it may be a stand-in still
 * being repaired, or a backend filling after a restart, and only the union of
 * every live holder is sure to hold each acknowledged entry (each is on every
 * replica that was live when it was acknowledged). A source that died fails
 * the task; the retry plans again without it once it is declared dead.
 */
export async function copyTask(task: CopyTask, context: CopyContext): Promise<boolean> {
  if (task.firstHolder !== undefined) {
    try {
      // One source sends each entry once: nothing to remember.
      await copyFrom(task.firstHolder, task, context, undefined, true);
      return true;
    } catch (error) {
      if (context.stop?.()) return false;
      context.logger.info(
        { source: task.firstHolder, target: task.target, err: (error as Error).message },
        "copy from the first holder alone failed: copying from every holder",
      );
    }
  }
  const sent = new TaskEntries();
  const outcomes = await Promise.all(
    task.sources.map(async (source) => {
      try {
        await copyFrom(source, task, context, sent);
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

function frameBytes(frames: readonly EntryFrame[]): number {
  let bytes = 0;
  for (const frame of frames) bytes += frame.length;
  return bytes;
}

async function copyFrom(
  source: string,
  task: CopyTask,
  context: CopyContext,
  sent: TaskEntries | undefined,
  requireReady = false,
): Promise<void> {
  const target = context.channel(task.target);
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  const rate = sourceRate(context.readRate);
  const batchSize = rate > 0 ? Math.min(context.batchSize, PACED_BATCH_SIZE) : context.batchSize;
  const scan = context
    .channel(source)
    .scanFrames(task.ranges, batchSize, scanIdleTimeoutMs(rate), rate, requireReady);
  for await (const scanned of scan) {
    if (failure) throw failure;
    if (context.stop?.()) throw new Error("copy stopped: the work was handed over");
    const frames = sent ? sent.unsent(scanned) : scanned;
    context.progress.duplicatesSkipped += scanned.length - frames.length;
    if (frames.length === 0) continue;
    await context.pace?.(frameBytes(frames));
    const apply: Promise<void> = target.applyFrames(frames, context.epoch(), 60_000).then(
      () => {
        context.progress.entriesCopied += frames.length;
        context.progress.bytesCopied += frameBytes(frames);
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

/** Entries encoded in no more than this are remembered by their bytes; larger ones are always applied. */
const REMEMBERED_FRAME_BYTES = 512;
/** How many entries one task remembers: past it, entries are applied from every source again. */
const REMEMBERED_ENTRIES = 200_000;

/**
 * The entries a task has sent the target, by their encoded bytes: an entry is
 * immutable, and equal bytes decode to the same entry, so applying it again
 * would change nothing. Skipping it is safe because a failed apply fails the
 * whole task, which is then copied again from scratch. The whole entry, not
 * its stamp alone: a caller that stamps its own writes can give two different
 * entries one stamp.
 */
class TaskEntries {
  readonly #sent = new Set<string>();

  /** The frames of `batch` not sent yet, now counted as sent. */
  unsent(batch: readonly EntryFrame[]): EntryFrame[] {
    const fresh: EntryFrame[] = [];
    for (const frame of batch) {
      if (frame.length > REMEMBERED_FRAME_BYTES) {
        fresh.push(frame);
        continue;
      }
      const id = Buffer.from(frame.buffer, frame.byteOffset, frame.length).toString("latin1");
      if (this.#sent.has(id)) continue;
      if (this.#sent.size < REMEMBERED_ENTRIES) this.#sent.add(id);
      fresh.push(frame);
    }
    return fresh;
  }
}
