// The consistent-hash ring of backends. Each member owns many virtual nodes;
// a bin at point p is placed on the first live members met clockwise from p.
// Placement depends only on the member ids, zones and liveness, never on their
// order. When members span more than one zone, a bin's backups are taken from
// zones its earlier replicas do not use, as long as live zones remain.
import { ringPoint } from "./hash.js";
import { RING_SIZE, type RingRange } from "./ring-range.js";

export interface RingMember {
  id: string;
  /** Failure domain (e.g. a cloud zone); members without one share the zone "". */
  zone?: string;
}

/** A stretch of the ring whose bins all have the same replicas. */
export interface RingSegment extends RingRange {
  replicas: string[];
}

/** A stretch of the ring whose replicas differ between two liveness sets. */
export interface RingChange extends RingRange {
  before: string[];
  after: string[];
}

export interface HashRingOptions {
  /** Virtual nodes per member: more spread bins more evenly at a cost in build time and memory. @default 512 */
  virtualNodes?: number;
}

/**
 * Tuned with `npm run bench -- placement`: at 512, no backend of 300 is
 * primary for more than 1.14 × its fair share of the ring (1.24 × the mean
 * over 100k sampled bins), and the ring builds in about 70 ms; 256 misses
 * 1.25. Changing it moves bins, so every client and keeper must agree on it.
 */
export const DEFAULT_VIRTUAL_NODES = 512;

/** Copies of every bin: a primary and two backups, so any two backends may be down at once. */
export const REPLICAS = 3;

/** Owner indices are packed below the point in one sort key, which must stay an exact float64 integer. */
const OWNER_SLOTS = 2 ** 16;

/**
 * Owners a walk tracks in a plain list before switching to a per-member
 * table: walks usually meet only a handful of members, and skipping the
 * table spares the hot path an allocation.
 */
const LIST_TRACKED_OWNERS = 8;

const everyoneLive = () => true;

export class HashRing {
  /** The members, in id order. */
  readonly members: readonly RingMember[];
  /** virtual node points, ascending; ties in owner (id) order */
  readonly #points: Uint32Array;
  /** owner index (into members) of each virtual node, parallel to #points */
  readonly #owners: Uint16Array;
  /** zone index of each member, parallel to members; zones numbered in name order */
  readonly #zoneOf: Uint16Array;
  /** distinct zones among the members; placement is zone-aware only above 1 */
  readonly #zoneCount: number;

  /** Throws when an id is empty or listed twice. */
  constructor(members: readonly RingMember[], options: HashRingOptions = {}) {
    const virtualNodes = options.virtualNodes ?? DEFAULT_VIRTUAL_NODES;
    if (!Number.isInteger(virtualNodes) || virtualNodes < 1) {
      throw new Error(`virtualNodes must be a positive integer, got ${virtualNodes}`);
    }
    if (members.length > OWNER_SLOTS) {
      throw new Error(`a ring holds at most ${OWNER_SLOTS} members, got ${members.length}`);
    }
    const ids = new Set<string>();
    for (const member of members) {
      if (member.id === "") throw new Error("ring member id must not be empty");
      if (ids.has(member.id)) throw new Error(`ring member ${member.id} is listed twice`);
      ids.add(member.id);
    }
    this.members = [...members].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    // One numeric sort of packed keys: far faster than sorting pairs with a
    // comparator, and it orders tied points by owner, so ties break by id.
    const keys = new Float64Array(this.members.length * virtualNodes);
    this.members.forEach(({ id }, owner) => {
      for (let i = 0; i < virtualNodes; i++) {
        keys[owner * virtualNodes + i] = ringPoint(`${id}#${i}`) * OWNER_SLOTS + owner;
      }
    });
    keys.sort();
    this.#points = new Uint32Array(keys.length);
    this.#owners = new Uint16Array(keys.length);
    keys.forEach((key, i) => {
      this.#points[i] = Math.floor(key / OWNER_SLOTS);
      this.#owners[i] = key % OWNER_SLOTS;
    });
    const zones = [...new Set(this.members.map((member) => member.zone ?? ""))].sort();
    this.#zoneCount = zones.length;
    this.#zoneOf = Uint16Array.from(this.members, (member) => zones.indexOf(member.zone ?? ""));
  }

  /** Distinct zones among the members (members without a zone count as one). */
  get zoneCount(): number {
    return this.#zoneCount;
  }

  /** The bin's replicas, primary first. */
  replicasFor(bin: string, isLive: (id: string) => boolean = everyoneLive, count = REPLICAS): string[] {
    return this.replicasAt(ringPoint(bin), isLive, count);
  }

  /**
   * The replicas of a point: the first `count` distinct live members clockwise
   * from it. With several zones: the first live member of each zone met, in
   * walk order, then (when live zones run out) the next live members met.
   */
  replicasAt(point: number, isLive: (id: string) => boolean = everyoneLive, count = REPLICAS): string[] {
    return this.#zoneCount > 1
      ? this.#zonedReplicasAt(point, isLive, count, undefined)
      : this.#replicasAt(point, isLive, count);
  }

  #replicasAt(point: number, isLive: (id: string) => boolean, count: number): string[] {
    const replicas: string[] = [];
    if (count < 1) return replicas;
    this.#walkMembers(point, (owner) => {
      const id = this.members[owner]!.id;
      return isLive(id) && replicas.push(id) === count;
    });
    return replicas;
  }

  /**
   * Zone-aware walk. `liveZones` (zones with a live member) lets the walk stop
   * as soon as no new zone can come; computed on first need when not given.
   */
  #zonedReplicasAt(
    point: number,
    isLive: (id: string) => boolean,
    count: number,
    liveZones: number | undefined,
  ): string[] {
    const replicas: string[] = [];
    if (count < 1) return replicas;
    /** Zones of the replicas taken while zones last: at most `count`, so a list. */
    const zonesTaken: number[] = [];
    /** Live members met in a zone already taken, in walk order: the fallback. */
    const skipped: string[] = [];
    let zonesExhausted = false;
    this.#walkMembers(point, (owner, met) => {
      const id = this.members[owner]!.id;
      if (!isLive(id)) return false;
      const zone = this.#zoneOf[owner]!;
      if (zonesExhausted) return replicas.push(id) === count;
      if (!zonesTaken.includes(zone)) {
        zonesTaken.push(zone);
        if (replicas.push(id) === count) return true;
      } else {
        skipped.push(id);
      }
      // Whether a new zone can still come is worth an O(members) count only on a long walk.
      if (skipped.length > 0 && met >= LIST_TRACKED_OWNERS) liveZones ??= this.#liveZones(isLive);
      if (zonesTaken.length === this.#zoneCount || zonesTaken.length === liveZones) {
        // No new zone can come: fall back to the members met, in walk order.
        zonesExhausted = true;
        for (const fallback of skipped) if (replicas.push(fallback) === count) return true;
      }
      return false;
    });
    // The walk met every member without running out of zones: the skipped fill the rest.
    if (!zonesExhausted) replicas.push(...skipped.slice(0, count - replicas.length));
    return replicas;
  }

  /**
   * Visits each member once, in clockwise order from `point`, until `visit`
   * returns true or every member was met (within one turn of the ring).
   * `met` is how many members came before this one. Members met are tracked
   * in a short list first, and in a per-member table once the walk is long.
   */
  #walkMembers(point: number, visit: (owner: number, met: number) => boolean): void {
    const total = this.#points.length;
    if (total === 0) return;
    const tracked: number[] = [];
    let table: Uint8Array | undefined;
    let met = 0;
    for (let i = this.#firstAtOrAfter(point); ; i = i + 1 === total ? 0 : i + 1) {
      const owner = this.#owners[i]!;
      if (table ? table[owner] === 1 : tracked.includes(owner)) continue;
      if (table) table[owner] = 1;
      else if (tracked.push(owner) === LIST_TRACKED_OWNERS) {
        table = new Uint8Array(this.members.length);
        for (const seen of tracked) table[seen] = 1;
      }
      if (visit(owner, met) || ++met === this.members.length) return;
    }
  }

  /** Zones that have at least one live member. */
  #liveZones(isLive: (id: string) => boolean): number {
    const live = new Uint8Array(this.#zoneCount);
    let count = 0;
    this.members.forEach((member, owner) => {
      const zone = this.#zoneOf[owner]!;
      if (live[zone] === 0 && isLive(member.id)) {
        live[zone] = 1;
        count++;
      }
    });
    return count;
  }

  /** replicasAt for many points under one liveness: zone counting is done once. */
  #placer(isLive: (id: string) => boolean, count: number): (point: number) => string[] {
    if (this.#zoneCount <= 1) return (point) => this.#replicasAt(point, isLive, count);
    const liveZones = this.#liveZones(isLive);
    return (point) => this.#zonedReplicasAt(point, isLive, count, liveZones);
  }

  /** The whole ring cut into maximal segments whose points share one replica list. */
  segments(isLive: (id: string) => boolean = everyoneLive, count = REPLICAS): RingSegment[] {
    const segments: RingSegment[] = [];
    const place = this.#placer(isLive, count);
    for (const { start, end, point } of this.#arcs()) {
      segments.push({ start, end, replicas: place(point) });
    }
    return coalesce(segments, (a, b) => sameList(a.replicas, b.replicas));
  }

  /**
   * Where placement differs between two liveness sets: maximal stretches of
   * the ring with their replicas before and after (stretches that did not
   * change are left out).
   */
  changes(wasLive: (id: string) => boolean, isLive: (id: string) => boolean, count = REPLICAS): RingChange[] {
    const changes: RingChange[] = [];
    const placeBefore = this.#placer(wasLive, count);
    const placeAfter = this.#placer(isLive, count);
    for (const { start, end, point } of this.#arcs()) {
      const before = placeBefore(point);
      const after = placeAfter(point);
      if (!sameList(before, after)) changes.push({ start, end, before, after });
    }
    return coalesce(changes, (a, b) => sameList(a.before, b.before) && sameList(a.after, b.after));
  }

  /**
   * The ring cut just after every distinct virtual node point, in order: the
   * walk from any point of arc [start, end) starts at the virtual nodes at
   * `point`, the arc's last. Tied virtual nodes share one arc, so none is empty.
   */
  *#arcs(): Generator<RingRange & { point: number }> {
    const points = this.#points;
    const total = points.length;
    if (total === 0) return;
    if (points[0] === points[total - 1]) {
      yield { start: 0, end: 0, point: points[0]! };
      return;
    }
    let previous = points[total - 1]!;
    for (let i = 0; i < total; i++) {
      const point = points[i]!;
      if (point === previous) continue;
      yield { start: (previous + 1) % RING_SIZE, end: (point + 1) % RING_SIZE, point };
      previous = point;
    }
  }

  /** Index of the first virtual node at or clockwise after the point. */
  #firstAtOrAfter(point: number): number {
    const points = this.#points;
    let low = 0;
    let high = points.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (points[middle]! < point) low = middle + 1;
      else high = middle;
    }
    return low === points.length ? 0 : low;
  }
}

/**
 * Joins neighbouring stretches that `same` finds alike, across zero too. A
 * stretch that ends up covering the whole ring is given as [0, 0).
 */
function coalesce<T extends RingRange>(stretches: readonly T[], same: (a: T, b: T) => boolean): T[] {
  const merged: T[] = [];
  for (const stretch of stretches) {
    const last = merged[merged.length - 1];
    if (last && last.end === stretch.start && same(last, stretch)) last.end = stretch.end;
    else merged.push({ ...stretch });
  }
  const first = merged[0];
  const last = merged[merged.length - 1];
  if (first && last && first !== last && last.end === first.start && same(first, last)) {
    first.start = last.start;
    merged.pop();
  }
  if (merged.length === 1 && first!.start === first!.end) {
    first!.start = 0;
    first!.end = 0;
  }
  return merged;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
