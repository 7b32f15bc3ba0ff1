// Backends joining and leaving the ring while the cluster runs. Any keeper
// takes a change and records it in the view (shared-view.ts), which beats
// spread and backends keep; the backend's owner then does the work with the
// machinery a death and a return already use:
//
// - added: recorded as a member and published dead, so placement does not
//   change yet. Its owner finds it answering like a dead backend that came
//   back: empties it, fills it with its share of bins from every live holder,
//   grants it readiness, and the backends that held those bins drop them.
// - removed: recorded as leaving. The backend, told so, retires: it takes no
//   grant or renewal from then on. Its owner revokes its readiness and counts
//   it silent (prober.ts), so it is declared dead once it answers retired (or,
//   silent, once no lease on it may run), and repaired like any death; its
//   keeper log intent makes the copy resumable. Once its bins are all on their
//   new replicas it is recorded removed and leaves the ring.
import {
  AnotherMemberError,
  BinringError,
  bigintToWire,
  type HeartbeatReply__Output,
  type HeartbeatRequest,
  InvalidArgumentError,
  type MembershipStatus,
  memberAddressProblem,
  REPLICAS,
  StatusCode,
  UnavailableError,
  zoneProblem,
} from "@binring/core";
import type { KeeperState } from "./keeper-state.js";

/** Heartbeat rounds a change waits for a backend to store it before the call reports it is not kept yet. */
const KEEP_ROUNDS = 3;

/**
 * How long a backend or keeper being added has to answer the check before it
 * is recorded: longer than a probe, since one just started may be slow to
 * answer its first call on a busy machine, and a false "nothing answers"
 * fails the operator's command.
 */
export const ANSWER_CHECK_MS = 2000;

export interface MembershipOutcome {
  /** false when the request changed nothing (already a member, already leaving). */
  changed: boolean;
  status: MembershipStatus;
}

export interface MembershipHooks {
  /** Backends whose repair or fill this keeper runs, queues, commits or recovers. */
  working(): readonly string[];
  /** Beats the peers: the membership changed. */
  beat(): void;
  /**
   * A heartbeat round now (Keeper.roundSoon): the new or leaving member's owner
   * probes it at once, not a tick later. Peers wake on the beat
   * (leavingLearned); the keeper that took the change needs this.
   */
  roundSoon(): void;
}

export class MembershipChanges {
  /** Leaving backends of this slice as of the last leavingLearned. */
  readonly #leavingSeen = new Set<string>();

  constructor(
    private readonly state: KeeperState,
    private readonly hooks: MembershipHooks,
  ) {}

  /**
   * Records a running backend as a member. Refused, recording nothing, when
   * the address is malformed, nothing answers there, or it is leaving.
   */
  async add(address: string, zone: string): Promise<MembershipOutcome> {
    const { state } = this;
    const problem = memberAddressProblem(address);
    if (problem !== undefined) throw new InvalidArgumentError(`backend address ${problem}`);
    const zoneIssue = zoneProblem(zone);
    if (zoneIssue !== undefined) throw new InvalidArgumentError(`zone of ${address} ${zoneIssue}`);
    const current = state.view.member(address);
    if (current?.status === "member") {
      if (current.zone !== zone) {
        throw refused(
          `${address} is already a member, in zone ${JSON.stringify(current.zone)}: remove it first to move it to zone ${JSON.stringify(zone)}`,
        );
      }
      return { changed: false, status: "member" };
    }
    if (current?.status === "leaving") {
      throw refused(`${address} is being removed: add it again once it has left the ring`);
    }
    await this.#checkAnswers(address);
    state.view.record(address, "member", { kind: "backend", zone });
    // Dead until its owner has emptied and filled it: placement does not change before then.
    state.view.publish(address, "dead", "");
    state.logger.info({ backend: address, zone }, "backend added to the ring; its owner fills it");
    this.hooks.beat();
    this.hooks.roundSoon();
    await keepOnBackends(state, address);
    return { changed: true, status: "member" };
  }

  /** Decommissions a member. Refused for a backend that is not one, or when fewer than 3 would remain. */
  async remove(address: string): Promise<MembershipOutcome> {
    const { state } = this;
    const current = state.view.member(address);
    if (!current || current.status === "removed") {
      throw refused(
        `${JSON.stringify(address)} is not a member of this cluster (members: ${this.#members().join(", ")})`,
      );
    }
    if (current.status === "leaving") return { changed: false, status: "leaving" };
    const remaining = this.#members().filter((member) => member !== address);
    if (remaining.length < REPLICAS) {
      throw refused(
        `removing ${address} would leave ${remaining.length} members; a cluster needs at least ${REPLICAS}, one per copy of a bin`,
      );
    }
    state.view.record(address, "leaving", { kind: "backend", zone: current.zone });
    state.logger.info({ backend: address }, "backend leaving the ring; its owner copies its bins elsewhere");
    this.hooks.beat();
    this.hooks.roundSoon();
    await keepOnBackends(state, address);
    return { changed: true, status: "leaving" };
  }

  /**
   * Leaving backends of this slice whose bins are all on their new replicas
   * (dead in the view, repair done, no keeper working on them) leave the ring.
   */
  finishLeaving(): void {
    const { state } = this;
    const working = new Set(this.hooks.working());
    const now = state.clock.now();
    for (const address of state.slice) {
      const published = state.view.get(address);
      if (
        !state.isLeaving(address) ||
        published?.state !== "dead" ||
        published.repairing ||
        working.has(address) ||
        state.peers.workingOn(address, now) !== undefined
      ) {
        continue;
      }
      state.view.record(address, "removed", { kind: "backend", zone: state.view.member(address)!.zone });
      state.logger.info(
        { backend: address },
        "backend left the ring: its bins are all on their new replicas",
      );
      this.hooks.beat();
    }
  }

  /**
   * Whether a backend of this slice is leaving that was not at the last call
   * (a peer's beat brought the change): its owner probes it at once, so its
   * copy does not wait for the next tick.
   */
  leavingLearned(): boolean {
    const { state } = this;
    let learned = false;
    for (const address of this.#leavingSeen) {
      if (!state.slice.has(address) || !state.isLeaving(address)) this.#leavingSeen.delete(address);
    }
    for (const address of state.slice) {
      if (!state.isLeaving(address) || this.#leavingSeen.has(address)) continue;
      this.#leavingSeen.add(address);
      learned = true;
    }
    return learned;
  }

  /** Members not leaving. */
  #members(): string[] {
    return this.state.view
      .members()
      .filter((record) => record.status === "member")
      .map((record) => record.address);
  }

  /**
   * The backend must answer, with its store, and be no member under another
   * address (it refuses the call then: kept-membership.ts), before it is recorded. Only then does a heartbeat give it this
   * cluster's membership to keep in place of whatever it kept before (it may
   * have served another cluster); neither heartbeat claims anything.
   */
  async #checkAnswers(address: string): Promise<void> {
    const { state } = this;
    // Epoch 0 and no records: this moves nothing on a backend that turns out to be a member already.
    const reply = await this.#ask(address, { epoch: "0", keeper: state.self });
    if (!reply.storeOk) throw refused(`${address} answers, but its store does not: nothing recorded`);
    await this.#ask(address, {
      epoch: bigintToWire(state.view.epoch),
      keeper: state.self,
      members: [],
      replaceMembers: true,
    });
  }

  async #ask(address: string, request: HeartbeatRequest): Promise<HeartbeatReply__Output> {
    const { state } = this;
    try {
      return await state.ports
        .backend(address)
        .heartbeat({ ...request, member: address }, Math.max(state.timing.probeTimeoutMs, ANSWER_CHECK_MS));
    } catch (error) {
      if (error instanceof AnotherMemberError) throw refused(`${error.message}; nothing recorded`);
      throw refused(`nothing answers at ${address} (${(error as Error).message}): nothing recorded`);
    }
  }
}

/**
 * Sends the records to every backend on the ring and waits for them to be
 * stored (kept-membership.ts in backend), so a change of `address` survives
 * every keeper restarting at once. At least one backend must keep them; each
 * answer counts if it reports this keeper's digest (a newer change meanwhile
 * is spread by the next heartbeats, like any other).
 */
export async function keepOnBackends(state: KeeperState, address: string): Promise<void> {
  for (let round = 0; round < KEEP_ROUNDS; round++) {
    const digest = state.view.membersDigest;
    const kept = await Promise.all(
      state.backends.map((backend) =>
        state.heartbeat(backend, {}).then(
          (reply) => reply.storeOk && reply.membersDigest === digest,
          () => false,
        ),
      ),
    );
    if (kept.some(Boolean)) return;
    await state.clock.sleep(state.timing.heartbeatIntervalMs);
  }
  throw new UnavailableError(
    `recorded the change of ${address}, but no backend has stored it yet: the keepers' heartbeats go on sending it, and it is lost only if every keeper restarts before one stores it`,
  );
}

/** A change the cluster's state does not allow (FAILED_PRECONDITION): asking another keeper would not help. */
export function refused(message: string): BinringError {
  return new BinringError(message, StatusCode.FAILED_PRECONDITION);
}
