// A half-open interval [start, end) of 32-bit ring points that wraps around
// zero when start >= end (start === end covers the whole ring).
export interface RingRange {
  start: number;
  end: number;
}

/** Number of points on the ring. */
export const RING_SIZE = 2 ** 32;

/** The ring, whole. */
export const WHOLE_RING: readonly RingRange[] = Object.freeze([{ start: 0, end: 0 }]);

export function pointInRange(point: number, start: number, end: number): boolean {
  if (start < end) return point >= start && point < end;
  return point >= start || point < end;
}

/** The ranges as intervals [from, to) that do not wrap: one that wraps around zero becomes two. */
export function unwrappedIntervals(ranges: readonly RingRange[]): [number, number][] {
  const intervals: [number, number][] = [];
  for (const { start, end } of ranges) {
    if (start < end) intervals.push([start, end]);
    else {
      intervals.push([start, RING_SIZE]);
      if (end > 0) intervals.push([0, end]);
    }
  }
  return intervals;
}
