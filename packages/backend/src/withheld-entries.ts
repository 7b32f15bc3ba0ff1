// Entries this backend took but withholds from readers: sets a coordinator
// sent to every replica at once (storage.proto SetRequest.later_replicas),
// which the replicas after this one in the write's list may not hold yet. A
// read whose result could show one is answered only once every entry of its
// key withheld when the result came back is released — by the coordinator's
// ReleaseRequest once every replica took the write, or by this backend's own
// forward to the later replicas (withheld-release.ts) — so whatever a reader
// sees on a replica is on every replica after it (docs/HAZARDS.md 1).
//
// Waiting for what is withheld when the result comes back, not when the read
// starts, is what makes it exact: an entry the store applied before it ran the
// read was withheld before its apply was sent, so it is among them; one
// withheld later was applied after the read and is not in its result. Held in
// memory only: a backend that restarts is emptied and filled before it serves
// reads again, and an empty releases everything (nothing it held is read).
import {
  encodeStamp,
  type KeyPattern,
  pointInRange,
  type RingRange,
  ringPoint,
  type Stamp,
} from "@binring/core";

/** A withheld set awaited by a read or a scan is forwarded to its later replicas after this long. */
export const RELEASE_AWAITED_AFTER_MS = 1000;
/** Any withheld set is forwarded after this long: its coordinator and writer have given up on it or died. */
export const RELEASE_AFTER_MS = 10_000;
/**
 * A withheld set is forwarded only this long after it came: inside the two
 * minutes write fences and write records last (write-fences.ts), which keep
 * an attempt that another attempt of its write superseded from landing
 * anywhere (HAZARDS.md 20). One still withheld then gives up (`giveUp`).
 */
export const FORWARD_WINDOW_MS = 90_000;

export class WithheldEntry {
  /** The replicas after this one in its write's newest list: where a cluster without keepers forwards it (those found gone are taken off). */
  later: readonly string[];
  /** The epoch and claim its write's newest attempt came with: a forward goes under that claim, and without keepers under that epoch. */
  epoch: bigint;
  claim: string | undefined;
  /** A read or a scan waits for it: it is forwarded sooner (RELEASE_AWAITED_AFTER_MS). */
  awaited = false;
  /** This backend forwards it to the later replicas now. */
  forwarding = false;
  /** Not forwarded again before this (node clock ms): its last forward failed. */
  retryAt = 0;
  /** How its last forward ended (withheld-release.ts), for the log when it gives up. */
  lastForward: string | undefined;
  #released = false;
  #waiters: (() => void)[] = [];
  #point: number | undefined;

  constructor(
    readonly bin: string,
    readonly key: string,
    readonly value: string,
    readonly stamp: Stamp,
    later: readonly string[],
    epoch: bigint,
    claim: string | undefined,
    /** When it was first withheld, by the node's clock (ms). */
    readonly since: number,
  ) {
    this.later = later;
    this.epoch = epoch;
    this.claim = claim;
  }

  /** The bin's ring point, hashed when a scan first asks. */
  get point(): number {
    this.#point ??= ringPoint(this.bin);
    return this.#point;
  }

  /** Resolves once released. */
  released(): Promise<void> {
    this.awaited = true;
    if (this.#released) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  release(): void {
    this.#released = true;
    for (const wake of this.#waiters) wake();
    this.#waiters = [];
  }
}

export class WithheldEntries {
  /** By stamp, bin and key. */
  readonly #entries = new Map<string, WithheldEntry>();
  /** By bin and key, and by bin: what a get, and what a keys call, waits for. */
  readonly #byKey = new Map<string, Set<WithheldEntry>>();
  readonly #byBin = new Map<string, Set<WithheldEntry>>();

  constructor(
    private readonly now: () => number,
    /** The backend can no longer vouch for what it holds: it serves no reads until emptied and refilled. */
    private readonly onGiveUp: (reason: string) => void = () => undefined,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /**
   * Withholds the entry until `release` (again for another attempt of the same
   * write: the newest attempt's replicas, epoch and claim are kept).
   */
  withhold(
    bin: string,
    key: string,
    value: string,
    stamp: Stamp,
    later: readonly string[],
    epoch: bigint,
    claim: string | undefined,
  ): void {
    const id = entryId(bin, key, stamp);
    const held = this.#entries.get(id);
    if (held) {
      held.later = later;
      held.epoch = epoch;
      held.claim = claim;
      return;
    }
    const entry = new WithheldEntry(bin, key, value, stamp, later, epoch, claim, this.now());
    this.#entries.set(id, entry);
    addTo(this.#byKey, keyId(bin, key), entry);
    addTo(this.#byBin, bin, entry);
  }

  /** The entry is on every replica after this one: readers may see it. */
  release(bin: string, key: string, stamp: Stamp): void {
    const id = entryId(bin, key, stamp);
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    removeFrom(this.#byKey, keyId(bin, key), entry);
    removeFrom(this.#byBin, bin, entry);
    entry.release();
  }

  /** Resolves once every entry of the key withheld now is released; undefined when none is. */
  releasedKey(bin: string, key: string): Promise<void> | undefined {
    if (this.#entries.size === 0) return undefined;
    return allReleased(this.#byKey.get(keyId(bin, key)));
  }

  /** The same for every key of the bin the pattern takes in: what a keys call could list. */
  releasedInBin(bin: string, { prefix = "", suffix = "" }: KeyPattern): Promise<void> | undefined {
    if (this.#entries.size === 0) return undefined;
    const held = this.#byBin.get(bin);
    return held && allReleased([...held].filter(({ key }) => key.startsWith(prefix) && key.endsWith(suffix)));
  }

  /** The same for every bin whose ring point is in the ranges: what a scan could copy. */
  releasedInRanges(ranges: readonly RingRange[]): Promise<void> | undefined {
    if (this.#entries.size === 0) return undefined;
    const held = [...this.#entries.values()].filter((entry) =>
      ranges.some(({ start, end }) => pointInRange(entry.point, start, end)),
    );
    return allReleased(held);
  }

  /** Entries to forward to their later replicas now: awaited for a while, or withheld for long. */
  due(): WithheldEntry[] {
    const now = this.now();
    return [...this.#entries.values()].filter(
      (entry) =>
        !entry.forwarding &&
        now >= entry.retryAt &&
        now - entry.since >= (entry.awaited ? RELEASE_AWAITED_AFTER_MS : RELEASE_AFTER_MS),
    );
  }

  /**
   * A set this backend could not forward within FORWARD_WINDOW_MS: it may no
   * longer be sent anywhere, nor shown, so this backend gives up serving reads
   * (onGiveUp) until a keeper empties and refills it, which releases it.
   */
  giveUp(entry: WithheldEntry): void {
    entry.retryAt = Number.POSITIVE_INFINITY;
    this.onGiveUp(`a set of bin ${JSON.stringify(entry.bin)} stayed withheld past ${FORWARD_WINDOW_MS} ms`);
  }

  /** Releases everything: the store was emptied, so nothing it held is read before a fill. */
  clear(): void {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    this.#byKey.clear();
    this.#byBin.clear();
    for (const entry of entries) entry.release();
  }
}

/** A read's result, answered once `released` (what it waits for of WithheldEntries) resolves. */
export async function afterRelease<T>(result: T, released: Promise<void> | undefined): Promise<T> {
  if (released) await released;
  return result;
}

/** `<length>:<bin><key>`: injective over (bin, key) whatever characters they hold. */
function keyId(bin: string, key: string): string {
  return `${bin.length}:${bin}${key}`;
}

function entryId(bin: string, key: string, stamp: Stamp): string {
  return encodeStamp(stamp) + keyId(bin, key);
}

function addTo(index: Map<string, Set<WithheldEntry>>, id: string, entry: WithheldEntry): void {
  const entries = index.get(id);
  if (entries) entries.add(entry);
  else index.set(id, new Set([entry]));
}

function removeFrom(index: Map<string, Set<WithheldEntry>>, id: string, entry: WithheldEntry): void {
  const entries = index.get(id);
  entries?.delete(entry);
  if (entries?.size === 0) index.delete(id);
}

function allReleased(entries: Iterable<WithheldEntry> | undefined): Promise<void> | undefined {
  if (!entries) return undefined;
  const waits = [...entries].map((entry) => entry.released());
  return waits.length === 0 ? undefined : Promise.all(waits).then(() => undefined);
}
