// Lamport clock convergence. Every clock-sync interval a keeper raises every
// live backend — not only its slice — to the largest clock known, reads their
// clocks from the answers, raises the laggards to the largest read, and beats
// its peers when that is a new largest clock of the cluster. Raising a clock is
// idempotent and anyone's to do, so one keeper that runs suffices: a slice
// whose owner is paused, or restarting and owning nothing until it has heard
// from every peer, still converges within an interval. Only this round beats: a
// raise triggered by a peer's beat never does, or two keepers under write load
// would trigger each other without end (every round finds clocks moved on by
// the writes).
import { bigintToWire } from "@binring/core";
import type { KeeperState } from "./keeper-state.js";

export class ClockSync {
  /** Largest clock read from the backends: carried by beats. */
  readMax = 0n;
  /** Largest clock the backends have been raised to: a beat above it triggers a raise of this slice at once. */
  #target = 0n;
  #syncing = false;

  constructor(
    private readonly state: KeeperState,
    /** Beats the peers (a new largest clock of the cluster). */
    private readonly beat: () => void,
  ) {}

  async round(): Promise<void> {
    // Off the keeper ring a keeper calls backends only to learn the membership.
    if (this.#syncing || this.state.stopped || this.state.selfStatus === "off-ring") return;
    this.#syncing = true;
    try {
      await this.#sync();
    } finally {
      this.#syncing = false;
    }
  }

  /** A peer's beat carried a clock above this slice's: raise the slice to it at once. */
  raise(clock: bigint): void {
    if (clock <= this.#target || this.state.stopped) return;
    this.#target = clock;
    for (const address of this.state.liveSlice()) {
      this.state.heartbeat(address, { clockFloor: bigintToWire(clock) }).catch(() => undefined);
    }
  }

  async #sync(): Promise<void> {
    const { state } = this;
    const peersMax = state.peers.maxClock(state.clock.now());
    const floor = peersMax > this.#target ? peersMax : this.#target;
    const live = [...state.liveSet()];
    const clocks = await Promise.all(
      live.map((address) =>
        state.heartbeat(address, { clockFloor: bigintToWire(floor) }).then(
          (reply) => BigInt(reply.clock),
          () => undefined,
        ),
      ),
    );
    let readMax = 0n;
    for (const clock of clocks) if (clock !== undefined && clock > readMax) readMax = clock;
    if (readMax > this.readMax) {
      this.readMax = readMax;
      // Only a new largest clock of the cluster is worth a beat now; anything less, peers already have.
      if (readMax > peersMax) this.beat();
    }
    if (readMax > this.#target) this.#target = readMax;
    await Promise.all(
      live.map((address, i) =>
        clocks[i] !== undefined && clocks[i]! < readMax
          ? state.heartbeat(address, { clockFloor: bigintToWire(readMax) }).catch(() => undefined)
          : undefined,
      ),
    );
  }
}
