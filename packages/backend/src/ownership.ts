// Which keeper owns this backend: the fencing token of the keeper's control
// calls (HAZARDS.md 23). A keeper claims the backend with a term in its
// heartbeats; a larger term takes the backend over. Terms are minted like
// epochs (counter, per-process nonce, keeper index), so two claims never
// share a term and a term names its keeper. The owner-only calls — a grant
// after a fill, a revoke, a renewal sent as owner, an empty — take effect only
// under the current term: a keeper that lost the backend (cut off, paused, or
// handed it back) and whose calls arrive late is refused, whatever it still
// believes.
//
// Kept in memory: a restarted backend is unclaimed until its owner's next
// heartbeat, and its restart already refuses what a late call could do (a
// grant or empty names the incarnation it was meant for).
import { BinringError, checkEpoch, StatusCode } from "@binring/core";
import type { Logger } from "pino";

export interface Owner {
  keeper: string;
  term: bigint;
}

/** What a keeper's heartbeat may do to readiness (readiness.ts). */
export type HeartbeatAuthority = "all" | "renew-only" | "nothing";

export class Ownership {
  #owner: Owner | undefined;

  /** `logger` hears every change of owner. */
  constructor(private readonly logger?: Logger) {}

  get owner(): Owner | undefined {
    return this.#owner;
  }

  /**
   * A heartbeat from `keeper` under `term` (0: not sent as owner, e.g. a
   * standby renewal). A larger term than the owner's claims the backend. The
   * owner's heartbeat may grant, renew and revoke; a standby's only renew (a
   * running lease: readiness.ts); a superseded owner's nothing. While no
   * keeper has claimed the backend, any heartbeat may do all.
   */
  heartbeat(keeper: string, term: bigint): HeartbeatAuthority {
    checkEpoch("ownerTerm", term);
    if (term === 0n) return this.#owner === undefined ? "all" : "renew-only";
    if (this.#owner === undefined || term > this.#owner.term) {
      this.logger?.info(
        {
          keeper,
          term: String(term),
          was: this.#owner?.keeper,
          wasTerm: this.#owner && String(this.#owner.term),
        },
        "claimed by a keeper",
      );
      this.#owner = { keeper, term };
    }
    return term === this.#owner.term ? "all" : "nothing";
  }

  /**
   * Throws unless an owner-only call under `term` may act: under the current
   * term, or under any while no keeper has claimed this backend (a cluster
   * without keepers, an operator's call).
   */
  admit(term: bigint, action: string): void {
    checkEpoch("ownerTerm", term);
    if (this.#owner === undefined || term === this.#owner.term) return;
    throw new BinringError(
      `refused to ${action}: owner term ${term} is not this backend's (${this.#owner.term}, keeper ${this.#owner.keeper}); the caller no longer owns it`,
      StatusCode.FAILED_PRECONDITION,
    );
  }
}
