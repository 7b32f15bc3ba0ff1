// The keeper ring: keepers hash onto a ring of their own, with the same hash
// and ring code as backends, and each keeper owns the backends whose ring
// point falls between its live predecessor and itself. When a keeper dies,
// the walk from each of its points goes on to the next live keeper: its
// successor takes its backends over, with no coordination beyond every keeper
// computing the same ring from the same membership (the cluster file's keepers,
// then those recorded as added or removed: membership-changes.ts).
import { HashRing, ringPoint } from "@binring/core";

/**
 * Points per keeper. One point per keeper would leave a keeper of three with
 * no backend at all now and then; sixteen spread six backends over three
 * keepers with none empty in the usual case, and a dead keeper's backends
 * over all its successors rather than one.
 */
export const KEEPER_VIRTUAL_NODES = 16;

/** Most keepers in one cluster: the view epoch keeps the minting keeper's index in 4 bits. */
export const MAX_KEEPERS = 16;

export class KeeperRing {
  readonly #ring: HashRing;

  /** Throws when a keeper is listed twice or there are more than MAX_KEEPERS. An empty ring owns nothing. */
  constructor(readonly keepers: readonly string[]) {
    if (keepers.length > MAX_KEEPERS) {
      throw new Error(`a cluster runs at most ${MAX_KEEPERS} keepers, got ${keepers.length}`);
    }
    this.#ring = new HashRing(
      keepers.map((id) => ({ id })),
      { virtualNodes: KEEPER_VIRTUAL_NODES },
    );
  }

  /** The keeper that owns a backend: the first live keeper clockwise from the backend's point. */
  ownerOf(backend: string, isLive: (keeper: string) => boolean): string | undefined {
    return this.#ring.replicasAt(ringPoint(backend), isLive, 1)[0];
  }

  /** Every live keeper's slice of the given backends (keepers that own none map to []). */
  slices(backends: readonly string[], isLive: (keeper: string) => boolean): Map<string, string[]> {
    const slices = new Map<string, string[]>(this.keepers.filter(isLive).map((keeper) => [keeper, []]));
    for (const backend of backends) {
      const owner = this.ownerOf(backend, isLive);
      if (owner) slices.get(owner)!.push(backend);
    }
    return slices;
  }
}
