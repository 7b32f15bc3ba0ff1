// The one state machine of a backend's health, as a keeper sees it. It moves
// only through the named events of TRANSITIONS; an event from a state the
// table does not list is a bug and throws. Every transition is logged.
//
//   unknown --fresh-cluster | found-ready--> ready
//   unknown --found-unready--> filling
//   ready --missed--> suspect --answered-again--> ready
//   any but dead --declared-dead (misses >= N and no lease may run)--> dead
//   dead | ready | suspect | filling --rejoined--> filling --filled--> ready
//     (each fill starts on an emptied store: from a death, a restart, a store
//     that refused a write, or a takeover of a filling backend until it is
//     ready, each new incarnation is emptied before it is filled)
//   any --taken-over--> the state the view publishes (a slice gained)
import type { Logger } from "pino";

export type HealthState = "unknown" | "ready" | "suspect" | "dead" | "filling";

export type HealthEvent =
  | "fresh-cluster"
  | "found-ready"
  | "found-unready"
  | "missed"
  | "answered-again"
  | "declared-dead"
  | "rejoined"
  | "filled"
  | "taken-over";

const ANY: readonly HealthState[] = ["unknown", "ready", "suspect", "dead", "filling"];

/** Each event: the states it may start from, and the state it leads to (taken-over: the one published). */
export const TRANSITIONS: Readonly<Record<HealthEvent, { from: readonly HealthState[]; to?: HealthState }>> =
  {
    "fresh-cluster": { from: ["unknown"], to: "ready" },
    "found-ready": { from: ["unknown"], to: "ready" },
    "found-unready": { from: ["unknown"], to: "filling" },
    missed: { from: ["ready"], to: "suspect" },
    "answered-again": { from: ["suspect"], to: "ready" },
    "declared-dead": { from: ["unknown", "ready", "suspect", "filling"], to: "dead" },
    rejoined: { from: ["dead", "ready", "suspect", "filling"], to: "filling" },
    filled: { from: ["filling"], to: "ready" },
    "taken-over": { from: ANY },
  };

export class IllegalTransitionError extends Error {
  constructor(address: string, event: HealthEvent, from: HealthState) {
    super(`backend ${address}: event ${event} is not allowed in state ${from}`);
  }
}

/** What one heartbeat reply said. */
export interface ProbeReply {
  incarnation: string;
  ready: boolean;
  needsFill: boolean;
  storeOk: boolean;
  epoch: bigint;
  clock: bigint;
  keys: number;
  lists: number;
  bins: number;
  /** The keeper whose claim the backend holds (backend/src/ownership.ts); "" when none has claimed it. */
  claimedBy: string;
}

export class BackendHealth {
  #state: HealthState = "unknown";
  /** Consecutive missed probes. */
  misses = 0;
  /** Times this keeper declared the backend dead: writes were acknowledged without it since each. */
  deaths = 0;
  /**
   * When the backend last answered (ms, keeper's monotonic clock). Starts at
   * the keeper's start: a lease granted by an earlier keeper ran from before then.
   */
  lastAnswerAt: number;
  /** When readiness was last granted (ms); the lease runs from then. */
  lastGrantAt = Number.NEGATIVE_INFINITY;
  /** The last answer; undefined until one came. */
  last: ProbeReply | undefined;
  /**
   * The incarnation the published view vouched for when this keeper took the
   * backend over, before it heard from it: an answer from another incarnation
   * is a restart, even if this keeper never heard the old one.
   */
  vouchedIncarnation: string | undefined;
  /**
   * Taken over and not answered since: the first answer is held to the
   * incarnation the view vouched for, not to one this keeper heard while it
   * did not own the backend (a standby hears a restart the view does not know yet).
   */
  #justTakenOver = false;
  /**
   * Its store may hold entries that must never be read: declared dead (or
   * taken over dead) and not ready since, writes were acknowledged without it,
   * tombstones among them may have been swept since, and merging its old
   * entries could then bring deleted data back (HAZARDS.md 3); restarted, or
   * its store refused a write, or taken over while filling, it may hold an
   * entry of a write attempt the cluster gave up on, whose write then landed
   * under another stamp (HAZARDS.md 20). Until it is ready again, every
   * incarnation that answers is emptied before it is filled, a restart during
   * the fill included: the store that comes back may be older than the empty
   * (a restored backup, an fsync lost).
   */
  #emptyBeforeFill = false;
  /**
   * The incarnation an empty ended in (the backend reports it), since the
   * backend last needed emptying; undefined until then.
   */
  wipedIncarnation: string | undefined;

  constructor(
    readonly address: string,
    private readonly logger: Logger,
    now: number,
  ) {
    this.lastAnswerAt = now;
  }

  get state(): HealthState {
    return this.#state;
  }

  /**
   * Moves the state machine by one event; `to` names the published state for
   * taken-over. Throws IllegalTransitionError for an event the state does not allow.
   */
  apply(event: HealthEvent, detail?: { to?: HealthState; reason?: string }): void {
    const transition = TRANSITIONS[event];
    if (!transition.from.includes(this.#state))
      throw new IllegalTransitionError(this.address, event, this.#state);
    const to = transition.to ?? detail?.to;
    if (to === undefined) throw new Error(`event ${event} needs a target state`);
    if (to === this.#state) return;
    this.logger.info(
      { backend: this.address, from: this.#state, to, event, reason: detail?.reason },
      "backend state",
    );
    this.#state = to;
    if (event === "taken-over") this.#justTakenOver = true;
    if (to === "dead" || (event === "taken-over" && to === "filling")) this.#mustEmpty();
    if (to === "ready") this.#emptyBeforeFill = false;
  }

  #mustEmpty(): void {
    this.#emptyBeforeFill = true;
    this.wipedIncarnation = undefined;
  }

  /** Whether this answer's store must be emptied before the backend is filled (see #emptyBeforeFill). */
  mustBeEmptied(reply: ProbeReply): boolean {
    return this.#emptyBeforeFill && reply.incarnation !== this.wipedIncarnation;
  }

  /** Records an answer that changes nothing yet (a backend whose store is being emptied). */
  heard(reply: ProbeReply, now: number): void {
    this.last = reply;
    this.lastAnswerAt = now;
    this.misses = 0;
  }

  /**
   * The incarnation this keeper knows to be the backend's, and vouches for in
   * the view: the one it last heard as owner; taken over and not heard since,
   * the one the view vouched for then (a standby may have heard a restart the
   * view does not know yet, and an owner that has not heard from it at all
   * must not withdraw the view's: standbys renew only a vouched incarnation).
   */
  get knownIncarnation(): string | undefined {
    return this.#justTakenOver
      ? this.vouchedIncarnation
      : (this.last?.incarnation ?? this.vouchedIncarnation);
  }

  /**
   * Records an answer. Returns "rejoined" when the backend must be refilled
   * before it is ready: it was dead, it restarted (new incarnation), or its
   * store refused a write. Returns "lapsed" when a ready or suspect backend
   * answers not ready: its lease ran out (a pause), and it refuses plain
   * renewals then. It was never declared dead, so no writer skipped it and it
   * holds every acknowledged entry: the owner grants it readiness again.
   */
  answered(reply: ProbeReply, now: number): "rejoined" | "lapsed" | "steady" {
    const known = this.knownIncarnation;
    this.#justTakenOver = false;
    const restarted = known !== undefined && known !== reply.incarnation;
    // A lapsed lease is granted again only to the incarnation known to hold everything.
    const lapsed = (this.state === "ready" || this.state === "suspect") && !reply.ready;
    const unvouched = lapsed && known === undefined;
    this.heard(reply, now);
    // Past the empty that follows, the backend answers as the incarnation the empty ended in.
    if ((restarted || reply.needsFill) && reply.incarnation !== this.wipedIncarnation) this.#mustEmpty();
    if (this.state === "dead" || restarted || reply.needsFill || unvouched) {
      if (this.state !== "filling" || restarted) {
        this.apply("rejoined", {
          reason: restarted
            ? "restarted"
            : reply.needsFill
              ? "its store refused a write"
              : unvouched
                ? "not ready, and no incarnation known to this keeper"
                : "answers again",
        });
        return "rejoined";
      }
      return "steady";
    }
    if (this.state === "suspect") this.apply("answered-again");
    return lapsed ? "lapsed" : "steady";
  }

  /**
   * A leaving backend answered that it is retired (backend/src/readiness.ts):
   * it takes no grant or renewal from anyone, so no lease on it runs or can
   * be revived, and no miss or lease need be waited for. Counted as a miss
   * like every round of a leaving backend. Returns "died" when it is now to
   * be declared dead, "held" when it would be but `mayDie` is false.
   */
  retiredAnswer(mayDie: boolean): "died" | "held" | "alive" {
    this.misses++;
    if (this.state === "dead") return "alive";
    if (!mayDie) {
      if (this.state === "ready") this.apply("missed");
      return "held";
    }
    this.deaths++;
    this.apply("declared-dead", { reason: "leaving, and retired: no lease on it runs" });
    return "died";
  }

  /**
   * Records a miss. Returns "died" when the backend is now to be declared
   * dead: enough misses, and no lease on it may still run — neither this
   * keeper's nor, as `othersLapsed` tells, one another keeper renewed.
   * Returns "held" when it would be, but `mayDie` is false: it stays suspect.
   */
  missed(
    now: number,
    missesToDead: number,
    leaseMs: number,
    othersLapsed = true,
    mayDie = true,
  ): "died" | "held" | "alive" {
    this.misses++;
    if (this.state === "dead") return "alive";
    const leaseLapsed = othersLapsed && now - Math.max(this.lastGrantAt, this.lastAnswerAt) > leaseMs;
    if (this.misses >= missesToDead && leaseLapsed && !mayDie) {
      if (this.state === "ready") this.apply("missed");
      return "held";
    }
    if (this.misses >= missesToDead && leaseLapsed) {
      this.deaths++;
      this.apply("declared-dead", { reason: `${this.misses} probes missed` });
      return "died";
    }
    if (this.state === "ready") this.apply("missed");
    return "alive";
  }
}
