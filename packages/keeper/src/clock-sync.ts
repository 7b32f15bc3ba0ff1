// Lamport clock convergence. Every clock-sync interval a keeper raises every
// live backend — not only its slice — to the largest clock known, reads their
// clocks from the answers, and raises the laggards to the largest read.
// Raising a clock is idempotent and anyone's to do, so one keeper that runs
// suffices: a slice whose owner is paused, or restarting and owning nothing
// until it has heard from every peer, still converges within an interval. So a
// new largest clock needs no beat of its own: the keeper that read it has
// raised every live backend to it by the end of its round, and its periodic
// beats carry it to the peers, who raise their slices to it should their own
// rounds have missed a backend.
import { bigintToWire, CLOCK_CEILING, wireToBigint } from "@binring/core";
import type { KeeperState } from "./keeper-state.js";

export class ClockSync {
  /** Largest clock read from the backends: carried by beats. */
  readMax = 0n;
  /** Largest clock the backends have been raised to: a beat above it triggers a raise of this slice at once. */
  #target = 0n;
  #syncing = false;

  constructor(private readonly state: KeeperState) {}

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
          (reply) => reportedClock(reply.clock),
          () => undefined,
        ),
      ),
    );
    let readMax = 0n;
    for (const clock of clocks) if (clock !== undefined && clock > readMax) readMax = clock;
    if (readMax > this.readMax) this.readMax = readMax;
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

/**
 * A backend's clock as it reported it; none at or past the ceiling, which no
 * backend reaches (core/value-bounds.ts): taken as the largest, it would be the
 * floor of every later round, and every backend would refuse it.
 */
function reportedClock(wire: string): bigint | undefined {
  const clock = wireToBigint(wire);
  return clock < CLOCK_CEILING ? clock : undefined;
}
