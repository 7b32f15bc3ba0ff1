// Whether a lease another keeper gave one of this keeper's backends may still
// run. Every keeper renews the leases of backends the view shows ready (so a
// dead owner's leases never lapse while its successor takes over); an owner
// that does not see a backend ready withholds it in its beats, and the other
// keepers then renew it no more. Their answers to such a beat report when they
// last renewed it: once every live peer has answered one, and its last renewal
// is older than a lease, no lease on the backend can run but the owner's own.
import type { KeeperState } from "./keeper-state.js";

interface QuietAnswer {
  /** When the beat was sent: only beats sent while the backend was withheld count. */
  sentAt: number;
  /** The peer's last renewal of the backend's lease, as it reported it. */
  lastGrant: number;
}

export class LeaseWitness {
  /** Backend of this slice -> since when it is withheld (not ready here); absent while ready. */
  readonly #withheldSince = new Map<string, number>();
  /** Backend of this slice -> peer -> its answer to a beat that showed the backend withheld. */
  readonly #quiet = new Map<string, Map<string, QuietAnswer>>();

  constructor(private readonly state: KeeperState) {}

  /** Backends of this slice not ready as this keeper sees them: no other keeper may renew their leases. */
  withheld(now: number): string[] {
    for (const backend of this.state.slice) this.note(backend, now);
    return [...this.#withheldSince.keys()];
  }

  /** Starts or ends a backend's withheld episode; answers from an earlier episode never count. */
  note(backend: string, now: number): void {
    const ready = this.state.health.get(backend)?.state === "ready";
    if (!ready && this.state.slice.has(backend)) {
      if (!this.#withheldSince.has(backend)) this.#withheldSince.set(backend, now);
    } else {
      this.#withheldSince.delete(backend);
      this.#quiet.delete(backend);
    }
  }

  /**
   * A peer answered a beat, sent at `sentAt`, that showed `withheld`: it saw
   * them before it answered, so it renews them no more, and its last renewal,
   * as it reports it in `grantAges`, bounds every lease it gave them.
   */
  answered(
    peer: string,
    withheld: readonly string[],
    grantAges: ReadonlyMap<string, number>,
    sentAt: number,
    now: number,
  ): void {
    for (const backend of withheld) {
      const age = grantAges.get(backend);
      let quiet = this.#quiet.get(backend);
      if (!quiet) {
        quiet = new Map();
        this.#quiet.set(backend, quiet);
      }
      quiet.set(peer, { sentAt, lastGrant: age === undefined ? Number.NEGATIVE_INFINITY : now - age });
    }
  }

  /**
   * No lease another live keeper gave this backend may still run. Only
   * answers to beats sent while it was withheld count, and they are dropped
   * whenever it is seen ready again (other keepers then renew it again).
   */
  othersLapsed(backend: string, now: number): boolean {
    const since = this.#withheldSince.get(backend);
    const quiet = this.#quiet.get(backend);
    return this.state.peers.livePeers(now).every((peer) => {
      const answer = quiet?.get(peer);
      return (
        since !== undefined &&
        answer !== undefined &&
        answer.sentAt >= since &&
        now - answer.lastGrant > this.state.timing.leaseMs
      );
    });
  }
}
