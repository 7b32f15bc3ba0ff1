// Keepers joining and leaving the keeper ring while the cluster runs. Any
// keeper takes a change and records it in the view, which beats spread and
// backends keep, like a backend's (membership-changes.ts). Slices then move by
// the machinery a keeper's death and return already use (keeper-peers.ts):
//
// - added: recorded as a member, with a slot no keeper on the ring holds (the
//   low bits of what it mints, shared-view.ts). Every keeper takes it as a
//   peer presumed live and owns nothing until it has heard from it; the new
//   keeper learns it was added from the first beat (or backend) that carries
//   the record, and takes its stretch of the ring the way a returning keeper
//   takes its slice back.
// - removed: recorded as leaving. A leaving keeper is on no ring: it owns
//   nothing, so its slice passes to its successors once its beats say it let
//   go, and it renews no lease as a witness. Once it holds no work and a lease
//   has passed since it began leaving (no lease it gave can still run), it
//   records itself removed and tells its peers; from then on it acts on
//   nothing. A leaving keeper that dies is recorded removed by the others.
import { InvalidArgumentError, KEEPER_SLOTS, type Member, memberAddressProblem } from "@binring/core";
import { MAX_KEEPERS } from "./keeper-ring.js";
import type { KeeperState } from "./keeper-state.js";
import { ANSWER_CHECK_MS, keepOnBackends, type MembershipOutcome, refused } from "./membership-changes.js";

export interface KeeperRingHooks {
  /** Backends whose repair or fill this keeper runs, queues, commits or recovers. */
  working(): readonly string[];
  /** Beats the peers: the membership changed. */
  beat(): void;
  /** Beats every peer once, even from off the keeper ring: this keeper just recorded itself removed. */
  farewell(): void;
  /** The address of the keeper that answers at `address` within the time (its own, or another name of it), if any. */
  answeringKeeper(address: string, timeoutMs: number): Promise<string | undefined>;
}

export class KeeperRingChanges {
  constructor(
    private readonly state: KeeperState,
    private readonly hooks: KeeperRingHooks,
  ) {}

  /**
   * Records a running keeper as a member of the keeper ring. Refused,
   * recording nothing, when the address is malformed or a backend's, no keeper
   * answers there, it is leaving, or the ring is full.
   */
  async add(address: string): Promise<MembershipOutcome> {
    const { state } = this;
    const problem = memberAddressProblem(address);
    if (problem !== undefined) throw new InvalidArgumentError(`keeper address ${problem}`);
    if (state.view.member(address)) throw refused(`${address} is a backend of this cluster, not a keeper`);
    const settled = this.#settled(address);
    if (settled) return settled;
    const answering = await this.hooks.answeringKeeper(
      address,
      Math.max(state.timing.probeTimeoutMs, ANSWER_CHECK_MS),
    );
    if (answering === undefined) throw refused(`no keeper answers at ${address}: nothing recorded`);
    // A keeper knows itself by one address, the one its peers and the view use for it.
    if (answering !== address) {
      throw refused(
        `${address} reaches the keeper ${answering}: add it by that address (its --advertise); nothing recorded`,
      );
    }
    // The membership may have moved while the keeper was asked.
    const now = this.#settled(address);
    if (now) return now;
    const slot = this.#freeSlot();
    if (slot === undefined) {
      throw refused(
        `the keeper ring is full (${MAX_KEEPERS} keepers: ${this.#onRing().join(", ")}): remove one before adding ${address}`,
      );
    }
    state.view.record(address, "member", { kind: "keeper", slot });
    state.logger.info({ keeper: address, slot }, "keeper added to the keeper ring; slices move to it");
    this.hooks.beat();
    await keepOnBackends(state, address);
    return { changed: true, status: "member" };
  }

  /** Takes a keeper off the keeper ring. Refused for one that is not on it, or the last one. */
  async remove(address: string): Promise<MembershipOutcome> {
    const { state } = this;
    const current = state.view.keeper(address);
    if (!current || current.status === "removed") {
      throw refused(
        `${JSON.stringify(address)} is not a keeper of this cluster (keepers: ${this.#onRing().join(", ")})`,
      );
    }
    if (current.status === "leaving") return { changed: false, status: "leaving" };
    if (this.#onRing().every((keeper) => keeper === address)) {
      throw refused(`${address} is the last keeper on the keeper ring: a cluster needs at least one`);
    }
    state.view.record(address, "leaving", { kind: "keeper", slot: current.slot });
    state.logger.info({ keeper: address }, "keeper leaving the keeper ring; it hands its slice over");
    this.hooks.beat();
    await keepOnBackends(state, address);
    return { changed: true, status: "leaving" };
  }

  /**
   * This keeper, leaving, records itself removed once it holds no work and no
   * lease it gave may still run; a leaving peer that died is recorded removed.
   */
  finishLeaving(): void {
    const { state } = this;
    const now = state.clock.now();
    const since = state.leavingSince;
    if (
      since !== undefined &&
      state.slice.size === 0 &&
      this.hooks.working().length === 0 &&
      now - since > state.timing.leaseMs
    ) {
      this.#recordRemoved(state.view.keeper(state.self)!);
      state.logger.info("this keeper left the keeper ring: it acts on nothing now, and may be stopped");
      this.hooks.farewell();
      return;
    }
    for (const record of state.view.keeperRecords()) {
      if (record.status !== "leaving" || record.address === state.self) continue;
      if (state.peers.isLive(record.address, now)) continue;
      this.#recordRemoved(record);
      state.logger.info({ keeper: record.address }, "a leaving keeper died: recorded as removed");
      this.hooks.beat();
    }
  }

  #recordRemoved(record: Member): void {
    this.state.view.record(record.address, "removed", { kind: "keeper", slot: record.slot });
  }

  /** The outcome when `address` needs no recording: already a member; refused while it leaves. */
  #settled(address: string): MembershipOutcome | undefined {
    const current = this.state.view.keeper(address);
    if (current?.status === "member") return { changed: false, status: "member" };
    if (current?.status === "leaving") {
      throw refused(`${address} is leaving the keeper ring: add it again once it has left`);
    }
    return undefined;
  }

  /** The lowest slot no keeper on the ring or leaving it holds. */
  #freeSlot(): number | undefined {
    const held = new Set(
      this.state.view
        .keeperRecords()
        .filter((record) => record.status !== "removed")
        .map((record) => record.slot),
    );
    if (held.size >= MAX_KEEPERS) return undefined;
    for (let slot = 0; slot < KEEPER_SLOTS; slot++) if (!held.has(slot)) return slot;
    return undefined;
  }

  /** Keepers on the ring, not leaving. */
  #onRing(): string[] {
    return this.state.view
      .keeperRecords()
      .filter((record) => record.status === "member")
      .map((record) => record.address);
  }
}
