// Lamport clock convergence. Every clock-sync interval a keeper raises its
// slice's backends to the largest clock known, reads their clocks from the
// answers, raises the laggards to the slice's largest, and beats its peers
// when that is a new largest clock of the cluster. Only this round beats: a
// raise triggered by a peer's beat never does, or two keepers under write load
// would trigger each other without end (every round finds clocks moved on by
// the writes).
import { bigintToWire } from "@binring/core";
import type { KeeperState } from "./keeper-state.js";

export class ClockSync {
  /** Largest clock read from this slice's backends: carried by beats. */
  sliceMax = 0n;
  /** Largest clock this slice has been raised to: a beat above it triggers a raise at once. */
  #target = 0n;
  #syncing = false;

  constructor(
    private readonly state: KeeperState,
    /** Beats the peers (a new largest clock of the cluster). */
    private readonly beat: () => void,
  ) {}

  async round(): Promise<void> {
    if (this.#syncing || this.state.stopped) return;
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
    const slice = state.liveSlice();
    const clocks = await Promise.all(
      slice.map((address) =>
        state.heartbeat(address, { clockFloor: bigintToWire(floor) }).then(
          (reply) => BigInt(reply.clock),
          () => undefined,
        ),
      ),
    );
    let sliceMax = 0n;
    for (const clock of clocks) if (clock !== undefined && clock > sliceMax) sliceMax = clock;
    if (sliceMax > this.sliceMax) {
      this.sliceMax = sliceMax;
      // Only a new largest clock of the cluster is worth a beat now; anything less, peers already have.
      if (sliceMax > peersMax) this.beat();
    }
    if (sliceMax > this.#target) this.#target = sliceMax;
    await Promise.all(
      slice.map((address, i) =>
        clocks[i] !== undefined && clocks[i]! < sliceMax
          ? state.heartbeat(address, { clockFloor: bigintToWire(sliceMax) }).catch(() => undefined)
          : undefined,
      ),
    );
  }
}
