// The consistent-hash ring of backends. Each member owns many virtual nodes;
// a bin at point p is placed on the first live members met clockwise from p.
// Placement depends only on the member ids and liveness, never on their order.
import { ringPoint } from "./hash.js";
import { RING_SIZE, type RingRange } from "./ring-range.js";

export interface RingMember {
  id: string;
  zone?: string;
}

/** A stretch of the ring whose bins all have the same replicas. */
export interface RingSegment extends RingRange {
  replicas: string[];
}

export interface HashRingOptions {
  /** Virtual nodes per member: more spread bins more evenly at a small cost in memory. @default 512 */
  virtualNodes?: number;
}

export const DEFAULT_VIRTUAL_NODES = 512;

export class HashRing {
  readonly members: readonly RingMember[];
  /** virtual node points, ascending */
  readonly #points: Uint32Array;
  /** owner index (into members) of each virtual node, parallel to #points */
  readonly #owners: Uint16Array;

  constructor(members: readonly RingMember[], options: HashRingOptions = {}) {
    const virtualNodes = options.virtualNodes ?? DEFAULT_VIRTUAL_NODES;
    const ids = new Set<string>();
    for (const member of members) {
      if (member.id === "") throw new Error("ring member id must not be empty");
      if (ids.has(member.id)) throw new Error(`ring member ${member.id} is listed twice`);
      ids.add(member.id);
    }
    if (members.length > 65_535) throw new Error(`a ring holds at most 65535 members, got ${members.length}`);
    this.members = [...members].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const nodes: [point: number, owner: number][] = [];
    this.members.forEach((member, owner) => {
      for (let i = 0; i < virtualNodes; i++) nodes.push([ringPoint(`${member.id}#${i}`), owner]);
    });
    // Ties between members (vanishingly rare) break by id order, which is the owner index.
    nodes.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    this.#points = Uint32Array.from(nodes, ([point]) => point);
    this.#owners = Uint16Array.from(nodes, ([, owner]) => owner);
  }

  /** The bin's replicas, primary first. */
  replicasFor(bin: string, isLive: (id: string) => boolean = () => true, count = 3): string[] {
    return this.replicasAt(ringPoint(bin), isLive, count);
  }

  /** The replicas of a point: the first `count` distinct live members clockwise from it. */
  replicasAt(point: number, isLive: (id: string) => boolean = () => true, count = 3): string[] {
    const replicas: string[] = [];
    const total = this.#points.length;
    if (total === 0) return replicas;
    const seen = new Uint8Array(this.members.length);
    let distinct = 0;
    for (let step = 0, i = this.#firstAtOrAfter(point); step < total; step++, i = (i + 1) % total) {
      const owner = this.#owners[i]!;
      if (seen[owner]) continue;
      seen[owner] = 1;
      distinct++;
      const id = this.members[owner]!.id;
      if (isLive(id)) {
        replicas.push(id);
        if (replicas.length === count) break;
      }
      if (distinct === this.members.length) break;
    }
    return replicas;
  }

  /** The whole ring cut into maximal segments whose points share one replica list. */
  segments(isLive: (id: string) => boolean = () => true, count = 3): RingSegment[] {
    const total = this.#points.length;
    if (total === 0) return [];
    // Points in (#points[i-1], #points[i]] map to the same replicas as #points[i].
    const raw: RingSegment[] = [];
    for (let i = 0; i < total; i++) {
      const start = (this.#points[(i - 1 + total) % total]! + 1) % RING_SIZE;
      const end = (this.#points[i]! + 1) % RING_SIZE;
      raw.push({ start, end, replicas: this.replicasAt(this.#points[i]!, isLive, count) });
    }
    if (total === 1) return [{ start: 0, end: 0, replicas: raw[0]!.replicas }];
    const merged: RingSegment[] = [];
    for (const segment of raw) {
      const last = merged[merged.length - 1];
      if (last && sameList(last.replicas, segment.replicas)) last.end = segment.end;
      else merged.push({ ...segment });
    }
    const first = merged[0]!;
    const last = merged[merged.length - 1]!;
    if (merged.length > 1 && sameList(first.replicas, last.replicas)) {
      first.start = last.start;
      merged.pop();
    }
    if (merged.length === 1) return [{ start: 0, end: 0, replicas: merged[0]!.replicas }];
    return merged;
  }

  /**
   * Where placement differs between two liveness sets: maximal stretches of
   * the ring with their replicas before and after (stretches that did not
   * change are left out).
   */
  changes(
    wasLive: (id: string) => boolean,
    isLive: (id: string) => boolean,
    count = 3,
  ): { start: number; end: number; before: string[]; after: string[] }[] {
    const total = this.#points.length;
    const changes: { start: number; end: number; before: string[]; after: string[] }[] = [];
    for (let i = 0; i < total; i++) {
      const start = (this.#points[(i - 1 + total) % total]! + 1) % RING_SIZE;
      const end = (this.#points[i]! + 1) % RING_SIZE;
      const before = this.replicasAt(this.#points[i]!, wasLive, count);
      const after = this.replicasAt(this.#points[i]!, isLive, count);
      if (sameList(before, after)) continue;
      const last = changes[changes.length - 1];
      if (last && last.end === start && sameList(last.before, before) && sameList(last.after, after))
        last.end = end;
      else changes.push({ start: total === 1 ? 0 : start, end: total === 1 ? 0 : end, before, after });
    }
    return changes;
  }

  #firstAtOrAfter(point: number): number {
    let low = 0;
    let high = this.#points.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#points[middle]! < point) low = middle + 1;
      else high = middle;
    }
    return low === this.#points.length ? 0 : low;
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
