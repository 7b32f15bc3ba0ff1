// The bins whose ring point lies in some ranges, read off the `bins` index
// (redis-engine.ts has the layout) in pages, for a Scan (redis-scan.ts) or a
// Drop. One ZRANGEBYSCORE for all of them held Redis for as long as the
// backend had bins — 1.3 s for two million, whose reply took 4.5 s to come
// back, near the command timeout past which the empty before a refill would
// fail on every try. A page is at most BINS_PER_PAGE bins in ring order and
// then every bin at the last point it reached, so the next page starts past
// that point and no page boundary splits a point's bins: every bin in the
// index from the read's start until the read passes its point is handed out
// exactly once (one added behind the read is not: it came after the read began).
import { type RingRange, unwrappedIntervals } from "@binring/core";
import type { RedisConnection } from "./redis-connection.js";
import type { TurnPipeline } from "./turn-pipeline.js";

/** Most bins one read of the index returns, but for those at its last point. */
export const BINS_PER_PAGE = 1000;
/** Intervals whose next pages are read at once, in one round of pipelined calls: a copy's ranges are many stretches. */
const INTERVALS_PER_ROUND = 16;

/** An interval [from, to) of the ring still to read; `from` is inclusive, or exclusive as "(point". */
interface Unread {
  from: string;
  to: number;
  done: boolean;
}

export class BinPages {
  /** What is left to read, in ring order. */
  #unread: Unread[];
  #read: string[] = [];

  constructor(
    private readonly connection: RedisConnection,
    private readonly pipeline: TurnPipeline,
    ranges: readonly RingRange[],
  ) {
    this.#unread = disjoint(unwrappedIntervals(ranges)).map(([from, to]) => ({
      from: String(from),
      to,
      done: false,
    }));
  }

  /** Up to `count` more bins; fewer only once every bin in the ranges was handed out. */
  async take(count: number): Promise<string[]> {
    while (this.#read.length < count && this.#unread.length > 0) {
      const round = this.#unread.slice(0, INTERVALS_PER_ROUND);
      for (const page of await Promise.all(round.map((interval) => this.#nextPage(interval))))
        this.#read.push(...page);
      this.#unread = this.#unread.filter(({ done }) => !done);
    }
    return this.#read.splice(0, count);
  }

  /** The interval's next page of bins; moves its start past them, or marks it done. */
  async #nextPage(interval: Unread): Promise<string[]> {
    const page = await this.#range(interval.from, `(${interval.to}`, "WITHSCORES", "LIMIT", 0, BINS_PER_PAGE);
    const bins: string[] = [];
    if (page.length < 2 * BINS_PER_PAGE) {
      for (let i = 0; i < page.length; i += 2) bins.push(page[i]!);
      interval.done = true;
      return bins;
    }
    // The page may have cut the bins at its last point short: they are read whole, apart.
    const last = page[page.length - 1]!;
    for (let i = 0; i < page.length; i += 2) if (page[i + 1] !== last) bins.push(page[i]!);
    bins.push(...(await this.#range(last, last)));
    interval.from = `(${last}`;
    return bins;
  }

  #range(from: string, to: string, ...options: (string | number)[]): Promise<string[]> {
    return this.connection.call(() =>
      this.pipeline.send<string[]>("zrangebyscore", "bins", from, to, ...options),
    );
  }
}

/** The intervals sorted and merged where they overlap or touch, so no bin is handed out twice. */
function disjoint(intervals: [number, number][]): [number, number][] {
  const merged: [number, number][] = [];
  for (const [from, to] of [...intervals].sort((a, b) => a[0] - b[0])) {
    const previous = merged[merged.length - 1];
    if (previous && from <= previous[1]) previous[1] = Math.max(previous[1], to);
    else merged.push([from, to]);
  }
  return merged;
}
