// When this backend last heard each keeper's heartbeat, by its own clock. Every
// keeper probes every backend, so a keeper cut off from the other keepers but
// not from the backends is still seen here; keepers read these sightings in
// heartbeat replies and do not take over a slice whose owner the backends still
// hear (keeper-peers.ts). Ages are durations on one clock, so no clock skew
// between machines enters them.
import { InvalidArgumentError } from "@binring/core";

/** Longest keeper name taken: addresses are far shorter. */
export const MAX_KEEPER_NAME_BYTES = 255;
/** Keepers remembered at most: the most recently heard (clusters run a handful). */
export const MAX_SIGHTED_KEEPERS = 64;
/** A keeper not heard for this long is forgotten: any keeper counts one this silent as dead. */
export const SIGHTING_TTL_MS = 60_000;

export interface KeeperSighting {
  keeper: string;
  ageMs: number;
}

export class KeeperSightings {
  /** Keeper -> when last heard; Map order is oldest first, so eviction takes the first. */
  readonly #heardAt = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** A heartbeat from `keeper` arrived. */
  heard(keeper: string): void {
    if (Buffer.byteLength(keeper) > MAX_KEEPER_NAME_BYTES) {
      throw new InvalidArgumentError(
        `keeper name of ${Buffer.byteLength(keeper)} bytes is longer than ${MAX_KEEPER_NAME_BYTES}: ${JSON.stringify(keeper.slice(0, 40))}…`,
      );
    }
    this.#heardAt.delete(keeper);
    this.#heardAt.set(keeper, this.now());
    if (this.#heardAt.size > MAX_SIGHTED_KEEPERS) this.#heardAt.delete(this.#heardAt.keys().next().value!);
  }

  /** Every keeper heard within SIGHTING_TTL_MS, with how long ago. */
  report(): KeeperSighting[] {
    const now = this.now();
    const sightings: KeeperSighting[] = [];
    for (const [keeper, at] of this.#heardAt) {
      const ageMs = Math.max(0, Math.ceil(now - at));
      if (ageMs > SIGHTING_TTL_MS) this.#heardAt.delete(keeper);
      else sightings.push({ keeper, ageMs });
    }
    return sightings;
  }
}
