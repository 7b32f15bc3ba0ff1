// Probing backends. Every heartbeat round a keeper probes every backend:
// renewing the readiness leases of the ready ones (its own, and, as a standby,
// those the owner vouches for), revoking them from filling and dead ones, and
// feeding each answer or miss to the backend's health (backend-health.ts).
// For its own slice it also decides what needs copies (a death, a rejoin),
// empties a returning dead backend's store first, and bootstraps backends no
// keeper has published yet.
import { AnotherMemberError, type HeartbeatReply__Output, REPLICAS, wireToBigint } from "@binring/core";
import type { BackendHealth, ProbeReply } from "./backend-health.js";
import type { IntentCommit } from "./intent-commit.js";
import type { ProbeCounters } from "./keeper-metrics.js";
import type { KeeperState } from "./keeper-state.js";
import type { LeaseWitness } from "./lease-witness.js";
import { without } from "./repair-job.js";

/** How long emptying a dead backend's store may take (one Drop of every bin it holds). */
const EMPTY_TIMEOUT_MS = 120_000;

export class Prober {
  /** Backends whose store is being emptied now, one call each at a time. */
  readonly #emptying = new Set<string>();

  /** Backends held suspect past their death, so that the warning is logged once per episode. */
  readonly #held = new Set<string>();

  /** Backends that refused to be called at their address as a second member, logged once until they answer. */
  readonly #otherMember = new Set<string>();

  constructor(
    private readonly state: KeeperState,
    private readonly witness: LeaseWitness,
    private readonly commits: IntentCommit,
    /** Backends whose repair or fill this keeper runs, queues, commits or recovers. */
    private readonly working: () => readonly string[],
    private readonly counters: ProbeCounters,
    /** Asks for a heartbeat round as soon as possible (Keeper.roundSoon). */
    private readonly roundSoon: () => void,
  ) {}

  async probe(health: BackendHealth): Promise<void> {
    const { state } = this;
    if (state.isLeaving(health.address)) return this.#probeLeaving(health);
    const owned = state.slice.has(health.address);
    const published = state.view.get(health.address);
    let renew: boolean;
    let revoke = false;
    let incarnation: string;
    if (owned) {
      renew = (health.state === "ready" || health.state === "suspect") && health.last !== undefined;
      revoke = health.state === "filling" || health.state === "dead";
      incarnation = health.last?.incarnation ?? "";
    } else {
      // A standby renewal: only while the owner publishes it ready and does not withhold it, and
      // only for the incarnation the owner vouches for. A keeper leaving the keeper ring renews
      // nothing: once it is removed no owner waits for its leases (keeper-ring-changes.ts). Nor
      // does one before every live peer has beaten it since it started or was added: an owner
      // that does not count it as a peer would not wait for its renewals.
      renew =
        state.selfStatus === "member" &&
        state.peers.heardFromEveryLivePeer(state.clock.now()) &&
        published?.state === "ready" &&
        published.incarnation !== "" &&
        !state.peers.withholds(health.address, state.clock.now());
      incarnation = published?.incarnation ?? "";
    }
    const sentAt = state.clock.now();
    let reply: HeartbeatReply__Output | undefined;
    try {
      reply = await state.heartbeat(health.address, {
        readiness: renew ? "READINESS_READY" : revoke ? "READINESS_NOT_READY" : "READINESS_UNSPECIFIED",
        leaseMs: String(state.timing.leaseMs),
        incarnation,
      });
      this.#otherMember.delete(health.address);
    } catch (error) {
      if (error instanceof AnotherMemberError) this.#refusedAsOtherMember(health.address, error);
      reply = undefined;
    }
    const now = state.clock.now();
    if (!reply?.storeOk) {
      this.counters.missed(health.address);
      if (owned && state.slice.has(health.address)) this.#missed(health, now);
      else health.misses++;
      this.witness.note(health.address, now);
      return;
    }
    if (renew && reply.incarnation === incarnation) health.lastGrantAt = sentAt;
    state.view.observe(wireToBigint(reply.epoch));
    const probe = toProbeReply(reply);
    if (!owned || !state.slice.has(health.address) || health.state === "unknown") {
      health.heard(probe, now);
      return;
    }
    // Another keeper's claim still holds there (a takeover or hand-back settling, a restart of this
    // keeper): the backend would refuse an empty or grant; the next heartbeat claims it.
    const claimed = wireToBigint(reply.ownerTerm) === state.ownerTermFor(health.address);
    if (health.mustBeEmptied(probe)) {
      health.heard(probe, now);
      if (claimed) void this.#empty(health, probe.incarnation);
    } else {
      const wasLive = state.liveSet();
      const answer = health.answered(probe, now);
      if (answer === "rejoined")
        this.commits.decide("fill", health.address, without(wasLive, health.address));
      if (answer === "lapsed") {
        state.logger.info({ backend: health.address }, "lease lapsed; granting readiness again");
        void this.grant(health, true);
      }
    }
    this.witness.note(health.address, now);
  }

  /**
   * The process at `address` is already another member (a host name and its
   * IP both listed): it refuses every heartbeat as this one, which misses its
   * heartbeats from now on and is repaired like a dead backend. Only the
   * operator can take the second name off the ring.
   */
  #refusedAsOtherMember(address: string, error: AnotherMemberError): void {
    if (this.#otherMember.has(address)) return;
    this.#otherMember.add(address);
    this.state.logger.error(
      { backend: address, err: error.message },
      `backend refuses to be a second member: remove ${address} (binring admin remove-backend ${address}) or list the backend once in the cluster file`,
    );
  }

  /**
   * Backends of the slice that no keeper has published yet (a fresh cluster,
   * or every keeper restarted) and that answered: a fresh cluster (every
   * backend that answered is empty and not ready, and nothing is published) is
   * made ready at once; otherwise ready backends stay ready and the others are
   * filled first.
   */
  bootstrap(): void {
    const { state } = this;
    const pending = [...state.slice]
      .map((address) => state.healthOf(address))
      .filter((health) => health.state === "unknown" && health.last !== undefined);
    if (pending.length === 0) return;
    const answered = [...state.health.values()].filter((health) => health.misses === 0 && health.last);
    const fresh =
      state.view.isEmpty && answered.every((health) => !health.last!.ready && health.last!.bins === 0);
    const wasLive = state.liveSet();
    for (const health of pending) {
      if (fresh || (health.last!.ready && !health.last!.needsFill)) {
        health.apply(fresh ? "fresh-cluster" : "found-ready");
        if (fresh) void this.grant(health, true);
      } else {
        health.apply("found-unready");
        this.commits.decide("fill", health.address, without(wasLive, health.address));
      }
    }
  }

  /**
   * Grants readiness now (after a fill, or at bootstrap) to `incarnation`, by
   * default the one last seen. Returns whether the backend took it: it refuses
   * a grant for an incarnation it no longer is, having lost entries since.
   */
  async grant(
    health: BackendHealth,
    filled: boolean,
    incarnation = health.last?.incarnation ?? "",
  ): Promise<boolean> {
    const { state } = this;
    const sentAt = state.clock.now();
    try {
      const reply = await state.heartbeat(health.address, {
        readiness: "READINESS_READY",
        leaseMs: String(state.timing.leaseMs),
        incarnation,
        filled,
      });
      if (!reply.ready || reply.incarnation !== incarnation) return false;
      health.lastGrantAt = sentAt;
      return true;
    } catch (error) {
      state.logger.warn(
        { backend: health.address, err: (error as Error).message },
        "grant of readiness failed",
      );
      return false;
    }
  }

  /**
   * Empties the store of a backend before it is filled (backend-health.ts
   * #emptyBeforeFill): one declared dead that answers again (it stays dead in
   * the view meanwhile, so no writer uses it), one that restarted or whose
   * store refused a write, and again if it restarts during that fill (it is
   * filling then, so writers use it, as they would after any restart: the
   * fill that follows copies their entries back). The fill copies every entry
   * of its stretches anyway; what it held from before is at best redundant
   * and at worst older than tombstones swept since, or an entry of a write
   * attempt the cluster gave up on (HAZARDS.md 20). The backend refuses if it is ready or no longer
   * `incarnation` (this keeper acted on an old answer), and reports the
   * incarnation the empty ended in: the one the fill may make ready.
   */
  async #empty(health: BackendHealth, incarnation: string): Promise<void> {
    if (this.#emptying.has(health.address)) return;
    this.#emptying.add(health.address);
    const { logger, ports } = this.state;
    try {
      const emptied = await ports
        .backend(health.address)
        .empty(incarnation, this.state.ownerTermFor(health.address), EMPTY_TIMEOUT_MS);
      health.wipedIncarnation = emptied.incarnation;
      logger.info(
        { backend: health.address, incarnation: emptied.incarnation, bins: emptied.bins },
        "emptied a backend (it died, restarted or lost its store since it was last ready); it is filled next",
      );
      // Heard again at once, it is decided a fill now rather than at the next round.
      this.roundSoon();
    } catch (error) {
      logger.warn(
        { backend: health.address, err: (error as Error).message },
        "could not empty a backend (it died, restarted or lost its store since it was last ready); trying again at its next answer",
      );
    } finally {
      this.#emptying.delete(health.address);
    }
  }

  /**
   * A backend being decommissioned (membership-changes.ts). Its owner revokes
   * its readiness, so it serves no read from now on, and counts every round as
   * a miss whether it answers or not: it is declared dead and repaired. Its
   * answers are not heard, so nothing rejoins it. Other keepers leave it alone.
   * Once it answers retired (it holds its own record as leaving, and takes no
   * grant or renewal from anyone), no lease on it runs or can be revived, and
   * it is declared dead at once; until then (a backend that has not stored the
   * record, or predates retiring), like a silent backend, once no lease on it
   * may run.
   */
  async #probeLeaving(health: BackendHealth): Promise<void> {
    const { state } = this;
    if (!state.slice.has(health.address)) return;
    let retired = false;
    try {
      const reply = await state.heartbeat(health.address, {
        readiness: "READINESS_NOT_READY",
        leaseMs: String(state.timing.leaseMs),
      });
      retired = reply.retired && !reply.ready;
    } catch {
      // Gone already: a death during its own decommission is handled like any death.
    }
    const now = state.clock.now();
    if (health.state !== "dead" && state.slice.has(health.address)) this.#missed(health, now, true, retired);
    this.witness.note(health.address, now);
  }

  #missed(health: BackendHealth, now: number, leaving = false, retired = false): void {
    const { state } = this;
    const wasLive = state.liveSet();
    const othersLapsed = this.witness.othersLapsed(health.address, now);
    const impaired = this.#impairedBesides(health.address, now);
    const isolated = this.#hearsNoOne(health.address, now);
    // One never heard from (listed but not started) holds nothing to lose, and fills may wait on it;
    // one leaving holds its bins until they are copied, whether this keeper heard it or not.
    const mayDie = !isolated && (impaired.length < REPLICAS - 1 || (health.last === undefined && !leaving));
    const outcome = retired
      ? health.retiredAnswer(mayDie)
      : health.missed(now, state.timing.missesToDead, state.timing.leaseMs, othersLapsed, mayDie);
    if (outcome === "died") this.commits.decide("repair", health.address, wasLive);
    if (outcome === "held" && !this.#held.has(health.address)) {
      this.#held.add(health.address);
      state.logger.warn(
        { backend: health.address, impaired },
        isolated
          ? "backend silent past its lease, but so is every other backend and keeper: this keeper is more likely cut off than they all dead, so it declares nothing; it stays suspect"
          : "backend silent past its lease, but declaring it dead would leave three backends without all their entries, past the failure model: it stays suspect, and writes to it wait",
      );
    }
    if (outcome !== "held") this.#held.delete(health.address);
  }

  /**
   * No other backend answered its last probe and no peer was heard within the
   * dead time: this keeper is cut off rather than everyone dead. Its verdicts
   * would be stale, and would win the merge once it is heard again, so it
   * declares nothing (HAZARDS.md 21).
   */
  #hearsNoOne(address: string, now: number): boolean {
    const { state } = this;
    const backendAnswers = state.backends.some(
      (backend) => backend !== address && state.healthOf(backend).misses === 0,
    );
    return !backendAnswers && !state.peers.hearsAnyPeer(now);
  }

  /**
   * Backends other than `address` that may lack acknowledged entries now:
   * those being filled, and those dead whose repair is not done. A death
   * empties the backend when it returns; a third such backend could be a
   * bin's last holder, so no keeper declares it while two are (HAZARDS.md 16).
   */
  #impairedBesides(address: string, now: number): string[] {
    const { state } = this;
    const working = new Set(this.working());
    const repairing = (backend: string) =>
      working.has(backend) ||
      state.peers.workingOn(backend, now) !== undefined ||
      state.view.get(backend)?.repairing === true;
    return state.backends.filter((backend) => {
      if (backend === address) return false;
      const local = state.slice.has(backend) ? state.healthOf(backend).state : undefined;
      const published = state.view.get(backend)?.state;
      if (local === "filling" || published === "filling") return true;
      return (local === "dead" || published === "dead") && repairing(backend);
    });
  }
}

function toProbeReply(reply: HeartbeatReply__Output): ProbeReply {
  return {
    incarnation: reply.incarnation,
    ready: reply.ready,
    needsFill: reply.needsFill,
    storeOk: reply.storeOk,
    epoch: BigInt(reply.epoch),
    clock: BigInt(reply.clock),
    keys: Number(reply.keys),
    lists: Number(reply.lists),
    bins: Number(reply.bins),
    claimedBy: reply.owner,
  };
}
