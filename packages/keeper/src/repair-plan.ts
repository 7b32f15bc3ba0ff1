// What to copy when placement changes. For every stretch of the ring whose
// replicas changed, each backend that became a replica must receive the
// entries of every other live holder, old or new: the union, because entries
// are idempotent and any holder may have entries the others lack (in-flight
// writes, HAZARDS.md 5 and 6). Where the stretch's first replica stays first
// among its holders, that one alone suffices while it is ready (`firstHolder`).
import type { HashRing, RingRange } from "@binring/core";

export interface CopyTask {
  target: string;
  /** Live backends that held or hold these ranges: the union of them all holds every entry a copy needs. */
  sources: string[];
  /**
   * The stretch's first replica before the change, when it is also the first
   * of the replicas that stay (only new holders come before it after): the
   * replica reads go to, before and during the change. While it is ready it
   * holds every acknowledged entry and every entry a read has returned, so a
   * copy may read it alone; not ready, the copy reads every source.
   */
  firstHolder?: string;
  ranges: RingRange[];
}

/** Ranges a backend held before a change and no longer holds: dropped once the new holders have them. */
export interface DropTask {
  backend: string;
  ranges: RingRange[];
}

export function planDrops(
  ring: HashRing,
  wasLive: (id: string) => boolean,
  isLive: (id: string) => boolean,
): DropTask[] {
  const drops = new Map<string, DropTask>();
  for (const change of ring.changes(wasLive, isLive)) {
    for (const backend of change.before) {
      if (change.after.includes(backend) || !isLive(backend)) continue;
      let task = drops.get(backend);
      if (!task) {
        task = { backend, ranges: [] };
        drops.set(backend, task);
      }
      task.ranges.push({ start: change.start, end: change.end });
    }
  }
  return [...drops.values()];
}

export function planCopies(
  ring: HashRing,
  wasLive: (id: string) => boolean,
  isLive: (id: string) => boolean,
): CopyTask[] {
  const tasks = new Map<string, CopyTask>();
  for (const change of ring.changes(wasLive, isLive)) {
    for (const target of change.after) {
      if (change.before.includes(target)) continue;
      const sources = [...new Set([...change.before, ...change.after])]
        .filter((id) => id !== target && isLive(id))
        .sort();
      const firstHolder = firstHolderOf(change.before, change.after, isLive);
      const key = `${target}\u0000${sources.join(",")}\u0000${firstHolder ?? ""}`;
      let task = tasks.get(key);
      if (!task) {
        task = { target, sources, ...(firstHolder === undefined ? {} : { firstHolder }), ranges: [] };
        tasks.set(key, task);
      }
      task.ranges.push({ start: change.start, end: change.end });
    }
  }
  return [...tasks.values()];
}

/** The first replica before, if live and still first of the replicas that stay (CopyTask.firstHolder). */
function firstHolderOf(
  before: readonly string[],
  after: readonly string[],
  isLive: (id: string) => boolean,
): string | undefined {
  const first = before[0];
  const firstStaying = after.find((id) => before.includes(id));
  return first !== undefined && first === firstStaying && isLive(first) ? first : undefined;
}
