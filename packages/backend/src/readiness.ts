// A backend's readiness: whether it holds every acknowledged entry of its
// bins, so it may serve reads that must see them. One state machine, moved
// only by the events of READINESS_TRANSITIONS; an event a state does not list
// is refused (the command is ignored) and changes nothing. Every change is
// logged.
//
//   not-ready --granted (after a fill)--> ready --renewed--> ready (lease extended)
//   ready --lease-lapsed | revoked--> not-ready
//   any --lost-entries (store reset, refused write, empty)--> needs-fill
//   needs-fill --granted (after a fill)--> ready
//   any --retired (its own record says leaving or removed)--> retired
//   retired --re-added (its record says member again)--> needs-fill
//
// A plain renewal never revives a lapsed lease: it may arrive long after it
// was sent (the process was paused with heartbeats queued on its socket), and
// by then its keeper may have declared this backend dead and acknowledged
// writes without it. Only a grant that follows a fill makes it ready again.
//
// A retired backend takes no grant and no renewal at all, from anyone, however
// late it reads them: once its owner sees it retired, it knows no lease on it
// runs or ever will, and may declare it dead without waiting for leases to
// lapse (keeper/src/prober.ts, a decommission).
import type { MembershipStatus } from "@binring/core";
import { type Logger, pino } from "pino";

export type ReadinessState = "not-ready" | "ready" | "needs-fill" | "retired";
export type ReadinessEvent =
  | "granted"
  | "renewed"
  | "revoked"
  | "lease-lapsed"
  | "lost-entries"
  | "retired"
  | "re-added";

/** Each event: the state it leads to from each state it is allowed in. */
export const READINESS_TRANSITIONS: Readonly<
  Record<ReadinessEvent, Readonly<Partial<Record<ReadinessState, ReadinessState>>>>
> = {
  granted: { "not-ready": "ready", ready: "ready", "needs-fill": "ready" },
  renewed: { ready: "ready" },
  revoked: { ready: "not-ready", "not-ready": "not-ready", "needs-fill": "needs-fill" },
  "lease-lapsed": { ready: "not-ready" },
  "lost-entries": { "not-ready": "needs-fill", ready: "needs-fill", "needs-fill": "needs-fill" },
  retired: { "not-ready": "retired", ready: "retired", "needs-fill": "retired", retired: "retired" },
  "re-added": { retired: "needs-fill" },
};

export class Readiness {
  #state: ReadinessState;
  /** When the lease lapses (in now() time); undefined while ready without expiry, or not ready. */
  #until: number | undefined;

  constructor(
    ready: boolean,
    private readonly now: () => number,
    private readonly logger: Logger = pino({ level: "silent" }),
  ) {
    this.#state = ready ? "ready" : "not-ready";
  }

  get state(): ReadinessState {
    if (this.#state === "ready" && this.#until !== undefined && this.now() >= this.#until) {
      this.#apply("lease-lapsed");
    }
    return this.#state;
  }

  get ready(): boolean {
    return this.state === "ready";
  }

  /** Milliseconds left on the lease: 0 when not ready, Infinity when ready until revoked. */
  get leaseRemainingMs(): number {
    if (this.state !== "ready") return 0;
    return this.#until === undefined ? Number.POSITIVE_INFINITY : this.#until - this.now();
  }

  /** Writers may have skipped this backend since it was last filled: only a grant after a fill ends that. */
  get needsFill(): boolean {
    return this.#state === "needs-fill";
  }

  /**
   * A keeper's grant: after a fill (`filled`) it makes this backend ready from
   * any state; otherwise it only renews a lease that still runs. `leaseMs` 0
   * means until revoked. Returns whether it was taken.
   */
  grant(filled: boolean, leaseMs: number): boolean {
    const taken = this.#apply(filled ? "granted" : "renewed", this.state);
    if (taken) this.#until = leaseMs > 0 ? this.now() + leaseMs : undefined;
    return taken;
  }

  revoke(): void {
    this.#apply("revoked");
  }

  /** Whether this backend is leaving the ring or has left it (retire, reAdd). */
  get retired(): boolean {
    return this.#state === "retired";
  }

  /** Follows this backend's own membership status (undefined: not known yet, nothing changes). */
  follow(status: MembershipStatus | undefined): void {
    if (status === "leaving" || status === "removed") this.retire();
    else if (status === "member") this.reAdd();
  }

  /** Its own membership record says leaving or removed: not ready, and never again while it says so. */
  retire(): void {
    this.#apply("retired");
  }

  /** Its record says member again (added anew): it missed writes while away, so only a fill readies it. */
  reAdd(): void {
    this.#apply("re-added");
  }

  /** This backend may have lost or missed acknowledged entries. */
  lostEntries(reason: string): void {
    this.#apply("lost-entries", this.#state, reason);
  }

  #apply(event: ReadinessEvent, from = this.#state, reason?: string): boolean {
    const to = READINESS_TRANSITIONS[event][from];
    if (to === undefined) return false;
    if (to !== from) this.logger.info({ from, to, event, reason }, "readiness");
    this.#state = to;
    if (to !== "ready") this.#until = undefined;
    return true;
  }
}
