// Beats between keepers. Every interval (and at once on a change) a keeper
// sends each peer its view, slice, work in hand, largest clock and lease
// renewals; the peer merges it and answers with its own, which is merged in
// turn. Missing beats is how a keeper's death is noticed (keeper-peers.ts).
import {
  bigintToWire,
  CLOCK_CEILING,
  InvalidArgumentError,
  type KeeperBeat,
  type KeeperBeat__Output,
  type Member,
  membersFromWire,
  memberToWire,
  wireToBigint,
} from "@binring/core";
import type { PeerBeat } from "./keeper-peers.js";
import type { KeeperState } from "./keeper-state.js";
import type { LeaseWitness } from "./lease-witness.js";
import type { PublishedState } from "./shared-view.js";
import { STATE_TO_WIRE, WIRE_TO_STATE } from "./wire-states.js";

export interface BeatHooks {
  /** Backends whose work this keeper runs, queues, commits or recovers. */
  working(): string[];
  /** Largest clock read from the backends. */
  maxClock(): bigint;
  /** A peer reported the largest clock it read from the backends. */
  peerClock(clock: bigint): void;
  /** A beat was merged: ownership may have moved. */
  merged(): void;
}

export class PeerBeats {
  /** Beats sent since start: shown in status, so chatter between keepers is visible. */
  sent = 0;
  #beating = false;
  /** A beat was asked for while one was in flight: it carried older news, so beat again after it. */
  #again = false;

  constructor(
    private readonly state: KeeperState,
    private readonly witness: LeaseWitness,
    private readonly hooks: BeatHooks,
  ) {}

  /**
   * A beat from a peer: merge it, and answer with ours. Its membership records
   * are merged first, whoever sent them (they are checked, and merging keeps
   * the newer of each): so a keeper learns it was added from the first beat
   * of a keeper that knows, and that a keeper was removed from its last beat.
   */
  receive(beat: KeeperBeat__Output): KeeperBeat {
    this.#learn(beat);
    // A keeper off the keeper ring has no say in the view: its beat is refused, not merged.
    if (!this.state.peers.isPeer(beat.keeper)) {
      throw new InvalidArgumentError(
        `beat from ${JSON.stringify(beat.keeper)}, which is not another keeper of this cluster: refused`,
      );
    }
    this.#take(beat, this.state.clock.now());
    return this.#message();
  }

  /** The address of the keeper that answers at `address` within `timeoutMs`, if one does: merges nothing of its answer. */
  async answeringKeeper(address: string, timeoutMs: number): Promise<string | undefined> {
    try {
      return (await this.state.ports.peer(address).beat(this.#message(), timeoutMs)).keeper;
    } catch {
      return undefined;
    }
  }

  /** Beats every peer; asked again while a round is in flight, it runs once more after it. */
  async round(): Promise<void> {
    if (this.state.stopped || this.state.selfStatus === "off-ring") return;
    if (this.#beating) {
      this.#again = true;
      return;
    }
    this.#beating = true;
    try {
      do {
        this.#again = false;
        await Promise.all(this.state.peers.addresses.map((peer) => this.beat(peer)));
      } while (this.#again && !this.state.stopped);
    } finally {
      this.#beating = false;
    }
  }

  /** Beats every peer once, whatever this keeper's place: it just recorded itself removed. */
  async farewell(): Promise<void> {
    await Promise.all(this.state.peers.addresses.map((peer) => this.beat(peer)));
  }

  /** Beats one peer; resolves true once its answer (taken after it merged our view) is merged here. */
  async beat(peer: string): Promise<boolean> {
    const { clock, ports, timing } = this.state;
    const withheld = this.witness.withheld(clock.now());
    const sentAt = clock.now();
    this.sent++;
    let reply: KeeperBeat__Output;
    try {
      // A beat may take up to an interval: a slow peer is not a dead one, and the fence waits for it.
      reply = await ports.peer(peer).beat(this.#message(), timing.heartbeatIntervalMs);
    } catch {
      return false;
    }
    const now = clock.now();
    if (reply.keeper !== peer) return false;
    const taken = this.#take(reply, now);
    this.witness.answered(peer, withheld, taken.grantAges, sentAt, now);
    return true;
  }

  #message(): KeeperBeat {
    const { state } = this;
    const now = state.clock.now();
    return {
      keeper: state.self,
      incarnation: state.incarnation,
      epoch: bigintToWire(state.view.epoch),
      backends: state.view.entries().map(([address, published]) => ({
        address,
        state: STATE_TO_WIRE[published.state],
        version: bigintToWire(published.version),
        incarnation: published.incarnation,
        by: published.by,
        repairing: published.repairing,
      })),
      members: state.view.records().map(memberToWire),
      slice: [...state.slice],
      working: this.hooks.working(),
      maxClock: bigintToWire(this.hooks.maxClock()),
      withheld: this.witness.withheld(now),
      grants: [...state.health.values()]
        .filter((health) => health.lastGrantAt > Number.NEGATIVE_INFINITY)
        .map((health) => ({
          backend: health.address,
          ageMs: String(Math.max(0, Math.ceil(now - health.lastGrantAt))),
        })),
    };
  }

  #take(beat: KeeperBeat__Output, now: number): PeerBeat {
    const { state } = this;
    const peer: PeerBeat = {
      incarnation: beat.incarnation,
      slice: new Set(beat.slice),
      working: new Set(beat.working),
      // A clock at or past the ceiling is no backend's (core/value-bounds.ts): passing it on as a
      // floor would fail every heartbeat.
      maxClock: belowCeiling(wireToBigint(beat.maxClock)),
      grantAges: new Map(beat.grants.map((grant) => [grant.backend, Number(grant.ageMs)])),
      withheld: new Set(beat.withheld),
    };
    if (state.peers.heard(beat.keeper, peer, now))
      state.logger.info({ peer: beat.keeper }, "keeper restarted");
    const members = this.#records(beat);
    const known = new Set([...state.backends, ...members.map((record) => record.address)]);
    const published = new Map<string, PublishedState>();
    for (const entry of beat.backends) {
      const health = WIRE_TO_STATE.get(entry.state);
      if (!health || !known.has(entry.address)) continue;
      published.set(entry.address, {
        state: health,
        version: wireToBigint(entry.version),
        incarnation: entry.incarnation,
        by: entry.by,
        repairing: health === "dead" && entry.repairing,
      });
    }
    if (state.view.merge(wireToBigint(beat.epoch), published, members) !== "unchanged") {
      state.logger.debug({ epoch: state.view.epoch.toString(), from: beat.keeper }, "view merged");
    }
    this.hooks.peerClock(peer.maxClock);
    this.hooks.merged();
    return peer;
  }

  /** Merges the membership records of a beat. */
  #learn(beat: KeeperBeat__Output): void {
    if (this.state.view.mergeMembers(this.#records(beat))) {
      this.state.logger.debug({ from: beat.keeper }, "membership learned from a beat");
    }
  }

  #records(beat: KeeperBeat__Output): Member[] {
    try {
      return membersFromWire("members", beat.members);
    } catch (error) {
      this.state.logger.warn(
        { peer: beat.keeper, err: (error as Error).message },
        "membership in a beat refused",
      );
      return [];
    }
  }
}

function belowCeiling(clock: bigint): bigint {
  return clock < CLOCK_CEILING ? clock : 0n;
}
