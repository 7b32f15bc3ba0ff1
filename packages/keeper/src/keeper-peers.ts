// What a keeper knows of the other keepers: when each was last heard from
// (a beat it sent, or its reply to ours), and what its last beat said — its
// slice, the work it has in hand, its largest clock, the leases it renewed.
// From that, which keepers are live and which backends this keeper owns now.
// Pure: time is passed in, so takeover is unit-tested on a fake clock.
//
// A peer is live while it is heard directly or a backend reports hearing its
// heartbeats (every keeper probes every backend). A keeper cut off from the
// other keepers but not from the backends therefore keeps its slice, and no
// other keeper takes it over while it still acts on it; its peers' fences and
// lease witnesses wait for it instead (unavailable, never two owners).
import type { KeeperRing } from "./keeper-ring.js";

/** The parts of a peer's beat that decide ownership, clocks and leases. */
export interface PeerBeat {
  incarnation: string;
  /** Backends the peer owns now. */
  slice: ReadonlySet<string>;
  /** Backends whose repair or fill the peer runs or has queued. */
  working: ReadonlySet<string>;
  maxClock: bigint;
  /** Backend -> ms since the peer last renewed its lease. */
  grantAges: ReadonlyMap<string, number>;
  /** Backends of the peer's slice it does not see ready: nobody else may renew their leases. */
  withheld: ReadonlySet<string>;
}

interface Peer {
  /** When it was last heard from; starts at this keeper's start (every peer is presumed live until silent). */
  heardAt: number;
  /** Its last beat; undefined until one came since this keeper started (or stalled). */
  beat: PeerBeat | undefined;
  /** When a backend last heard its heartbeat, as the backend reported it. */
  sightedAt: number;
}

export class KeeperPeers {
  readonly #peers = new Map<string, Peer>();

  /**
   * @param self this keeper's address
   * @param keepers every keeper's address, self included
   * @param deadAfterMs a peer silent this long is dead: its slice is taken over
   */
  constructor(
    readonly self: string,
    keepers: readonly string[],
    readonly deadAfterMs: number,
    now: number,
  ) {
    this.track(keepers, now);
  }

  /**
   * The keepers are now these (the membership changed): a new one is presumed
   * live, as at a start, and owns nothing here until heard from; one no longer
   * listed is forgotten, claims and all.
   */
  track(keepers: readonly string[], now: number): void {
    for (const keeper of keepers) {
      if (keeper !== this.self && !this.#peers.has(keeper)) {
        this.#peers.set(keeper, { heardAt: now, beat: undefined, sightedAt: Number.NEGATIVE_INFINITY });
      }
    }
    for (const keeper of this.#peers.keys()) if (!keepers.includes(keeper)) this.#peers.delete(keeper);
  }

  get addresses(): string[] {
    return [...this.#peers.keys()];
  }

  /** Whether `keeper` is another keeper of this cluster: on the keeper ring or leaving it. */
  isPeer(keeper: string): boolean {
    return this.#peers.has(keeper);
  }

  /** Records a beat from a peer (its request, or its reply to ours). Returns true when the peer restarted. */
  heard(peer: string, beat: PeerBeat, now: number): boolean {
    const known = this.#peers.get(peer);
    if (!known) return false;
    const restarted = known.beat !== undefined && known.beat.incarnation !== beat.incarnation;
    known.heardAt = Math.max(known.heardAt, now);
    known.beat = beat;
    return restarted;
  }

  /** A backend reported hearing `keeper` at `at` (this keeper's clock). */
  sighted(keeper: string, at: number): void {
    const peer = this.#peers.get(keeper);
    if (peer) peer.sightedAt = Math.max(peer.sightedAt, at);
  }

  isLive(keeper: string, now: number): boolean {
    if (keeper === this.self) return true;
    const peer = this.#peers.get(keeper);
    return peer !== undefined && now - Math.max(peer.heardAt, peer.sightedAt) <= this.deadAfterMs;
  }

  /**
   * Every live peer's beat has come since this keeper started or was added
   * to the keeper ring: each of them counts this keeper as a peer, so waits
   * for its lease answers (lease-witness.ts) before it declares a backend dead.
   */
  heardFromEveryLivePeer(now: number): boolean {
    return this.livePeers(now).every((peer) => this.#peers.get(peer)!.beat !== undefined);
  }

  /** This keeper was just added to the keeper ring: beats from before count for nothing. */
  forgetBeats(): void {
    for (const peer of this.#peers.values()) peer.beat = undefined;
  }

  /** Whether any peer was heard directly (a beat or its answer) within the dead time. */
  hearsAnyPeer(now: number): boolean {
    return [...this.#peers.values()].some((peer) => now - peer.heardAt <= this.deadAfterMs);
  }

  /** Live, but not heard directly for longer than a dead one would be: cut off from this keeper. */
  isCutOff(keeper: string, now: number): boolean {
    const peer = this.#peers.get(keeper);
    return peer !== undefined && this.isLive(keeper, now) && now - peer.heardAt > this.deadAfterMs;
  }

  livePeers(now: number): string[] {
    return this.addresses.filter((peer) => this.isLive(peer, now));
  }

  beatOf(peer: string): PeerBeat | undefined {
    return this.#peers.get(peer)?.beat;
  }

  /** A live peer that runs or queues work for this backend, if any. */
  workingOn(backend: string, now: number): string | undefined {
    return this.livePeers(now).find((peer) => this.#peers.get(peer)!.beat?.working.has(backend));
  }

  /** A live peer withholds this backend's lease (its owner does not see it ready). */
  withholds(backend: string, now: number): boolean {
    return this.livePeers(now).some((peer) => this.#peers.get(peer)!.beat?.withheld.has(backend));
  }

  /** Largest clock any live peer reported for its slice. */
  maxClock(now: number): bigint {
    let highest = 0n;
    for (const peer of this.livePeers(now)) {
      const clock = this.#peers.get(peer)!.beat?.maxClock ?? 0n;
      if (clock > highest) highest = clock;
    }
    return highest;
  }

  /**
   * After this keeper itself stalled (a long pause), its peers look silent
   * only because it did not listen: presume them live again, as at a start,
   * rather than take their slices over. (The caller then beats them at once.)
   */
  presumeLive(now: number): void {
    for (const peer of this.#peers.values()) peer.heardAt = Math.max(peer.heardAt, now);
  }

  /**
   * The backends this keeper owns now: those the keeper ring gives it among
   * the live keepers, once it has heard from every live peer since it started,
   * and minus any a live peer still claims (a slice being handed back: the
   * peer lets go when it hears from us, and says so in its next beat).
   */
  ownedSlice(ring: KeeperRing, backends: readonly string[], now: number): Set<string> {
    if (!this.heardFromEveryLivePeer(now)) return new Set();
    const live = this.livePeers(now);
    const isLive = (keeper: string) => keeper === this.self || live.includes(keeper);
    const claimed = (backend: string) => live.some((peer) => this.#peers.get(peer)!.beat!.slice.has(backend));
    return new Set(backends.filter((b) => ring.ownerOf(b, isLive) === this.self && !claimed(b)));
  }
}
