// The cluster view every keeper serves: each backend's state as its owner
// published it, and an epoch. Only a backend's owner changes its entry,
// bumping the entry's version; merging two views keeps each backend's higher
// version, so keepers that beat each other converge on the same content.
//
// Epochs. Same epoch must mean same content, and a backend fenced at epoch E
// must refuse every view that lacks the change E was minted for. An epoch is
// minted by one keeper only — its index sits in the low bits, with a random
// nonce per keeper process so a restarted keeper never re-mints an epoch its
// previous life handed out — above every epoch it has seen:
//
//   epoch = counter << 24 | nonce << 4 | keeper index
//
// A keeper mints when its own content changes, and when a merge leaves it with
// content no epoch it has seen stands for; it adopts a peer's epoch only with
// exactly that peer's content. Before a keeper fences backends for a change it
// waits until every live keeper has merged the change (RepairRunner#fence): from
// then on every epoch any keeper mints includes it, and every epoch minted
// before is smaller, so an epoch at or above the fence always knows the change.
//
// The view's content is each backend's published state and the membership
// (which backends and keepers are on the rings, membership.ts in core): a
// recorded change of either mints, so the epoch fences a client whose ring is
// out of date as it fences one with old states.
//
// A keeper's index is its slot on the keeper ring: its place in the cluster
// file, or the free slot it was given when added (membership-changes.ts).
import { randomInt } from "node:crypto";
import {
  EPOCH_CEILING,
  type Member,
  type MemberKind,
  type MembershipStatus,
  membersDigest,
  mergeMembers,
  sameMember,
} from "@binring/core";
import type { HealthState } from "./backend-health.js";

export interface PublishedState {
  state: HealthState;
  /** Bumped by the owner on every change of this backend's entry. */
  version: bigint;
  /** The incarnation the owner vouches for; only it may have its lease renewed. */
  incarnation: string;
  /** The keeper that set this version. */
  by: string;
  /**
   * Dead, and its bins not yet re-copied onto the backends standing in for
   * it: those may lack acknowledged entries, so clients read none of its bins
   * there until the repair is done (client-session.ts, Placement.readable).
   */
  repairing: boolean;
}

const COUNTER_SHIFT = 24n;
const NONCE_BITS = 20;

export function isValidEpoch(epoch: bigint): boolean {
  return epoch >= 0n && epoch < EPOCH_CEILING;
}

export function epochCounter(epoch: bigint): bigint {
  return epoch >> COUNTER_SHIFT;
}

/** The number a keeper with `stamp` mints at `counter` (epochs, and owner terms: ownership-terms.ts). */
export function mintedAt(counter: bigint, stamp: bigint): bigint {
  return (counter << COUNTER_SHIFT) | stamp;
}

/** Does a win over b? Higher version; on a tie (two owners at once), the larger keeper address. */
function newer(a: PublishedState, b: PublishedState): boolean {
  return a.version > b.version || (a.version === b.version && a.by > b.by);
}

function same(a: PublishedState | undefined, b: PublishedState | undefined): boolean {
  return (
    a === b ||
    (a !== undefined &&
      b !== undefined &&
      a.version === b.version &&
      a.by === b.by &&
      a.state === b.state &&
      a.incarnation === b.incarnation &&
      a.repairing === b.repairing)
  );
}

export class SharedView {
  #epoch = 0n;
  #backends = new Map<string, PublishedState>();
  #members = new Map<string, Member>();
  #membersDigest = membersDigest(this.#members);
  /** The largest counter seen in any epoch (from peers and backends): the next mint goes above it. */
  #counterSeen = 0n;
  readonly #nonce: bigint;
  #slot: bigint;

  constructor(
    readonly self: string,
    slot: number,
    nonce = randomInt(2 ** NONCE_BITS),
  ) {
    this.#nonce = BigInt(nonce);
    this.#slot = BigInt(slot);
  }

  /** This keeper process's low bits of every number it mints: nonce and slot. */
  get stamp(): bigint {
    return (this.#nonce << 4n) | this.#slot;
  }

  /** Mints under `slot` from now on: this keeper was added to the keeper ring with it. */
  useSlot(slot: number): void {
    this.#slot = BigInt(slot);
  }

  get epoch(): bigint {
    return this.#epoch;
  }

  get(backend: string): PublishedState | undefined {
    return this.#backends.get(backend);
  }

  entries(): [string, PublishedState][] {
    return [...this.#backends.entries()];
  }

  get isEmpty(): boolean {
    return this.#backends.size === 0;
  }

  /** Every membership record, backends' and keepers': what beats and heartbeats carry. */
  records(): Member[] {
    return [...this.#members.values()];
  }

  /** The backends' records: members, leaving ones, removed ones. Seeds first, in their order. */
  members(): Member[] {
    return this.records().filter((record) => record.kind === "backend");
  }

  /** The keepers' records. Seeds first, in their order. */
  keeperRecords(): Member[] {
    return this.records().filter((record) => record.kind === "keeper");
  }

  /** A backend's record. */
  member(address: string): Member | undefined {
    const record = this.#members.get(address);
    return record?.kind === "backend" ? record : undefined;
  }

  /** A keeper's record. */
  keeper(address: string): Member | undefined {
    const record = this.#members.get(address);
    return record?.kind === "keeper" ? record : undefined;
  }

  get membersDigest(): string {
    return this.#membersDigest;
  }

  /** The cluster file's backends and keepers (version 0 records): any recorded change wins over them. */
  seed(records: Iterable<Member>): void {
    mergeMembers(this.#members, records);
    this.#membersDigest = membersDigest(this.#members);
  }

  /** This keeper records a change of a backend's or keeper's membership; returns the new epoch. */
  record(
    address: string,
    status: MembershipStatus,
    place: { kind: MemberKind; zone?: string; slot?: number },
  ): bigint {
    const version = (this.#members.get(address)?.version ?? 0n) + 1n;
    const { kind, zone = "", slot = 0 } = place;
    this.#members.set(address, { address, kind, slot, zone, status, version, by: this.self });
    this.#membersDigest = membersDigest(this.#members);
    return this.#mint();
  }

  /** Records a backend kept (kept-membership.ts in backend); returns whether the membership changed. */
  mergeMembers(records: readonly Member[]): boolean {
    const merged = new Map(this.#members);
    if (!mergeMembers(merged, records)) return false;
    this.#members = merged;
    this.#membersDigest = membersDigest(merged);
    this.#mint();
    return true;
  }

  /**
   * An epoch seen elsewhere (a backend's report): mints from now on go above
   * it. One at or past the ceiling is no keeper's (core/value-bounds.ts): it is
   * ignored, so nothing can drive minting to wrap.
   */
  observe(epoch: bigint): void {
    if (!isValidEpoch(epoch)) return;
    const counter = epochCounter(epoch);
    if (counter > this.#counterSeen) this.#counterSeen = counter;
  }

  /**
   * This keeper, as the backend's owner, publishes its state; returns the new
   * epoch. Only a dead backend can be repairing.
   */
  publish(backend: string, state: HealthState, incarnation: string, repairing = false): bigint {
    const current = this.#backends.get(backend);
    this.#backends.set(backend, {
      state,
      incarnation,
      version: (current?.version ?? 0n) + 1n,
      by: this.self,
      repairing: state === "dead" && repairing,
    });
    return this.#mint();
  }

  /** Merges a peer's view; returns what became of ours. */
  merge(
    epoch: bigint,
    backends: ReadonlyMap<string, PublishedState>,
    members: readonly Member[] = [],
  ): "unchanged" | "adopted" | "minted" {
    if (!isValidEpoch(epoch)) return "unchanged";
    this.observe(epoch);
    const merged = new Map(this.#backends);
    for (const [address, theirs] of backends) {
      const mine = merged.get(address);
      if (!mine || newer(theirs, mine)) merged.set(address, theirs);
    }
    const mergedMembers = new Map(this.#members);
    const membersChanged = mergeMembers(mergedMembers, members);
    const changed =
      membersChanged || [...merged].some(([address, state]) => !same(state, this.#backends.get(address)));
    if (!changed && epoch <= this.#epoch) return "unchanged";
    this.#backends = merged;
    this.#members = mergedMembers;
    this.#membersDigest = membersDigest(mergedMembers);
    const theirMembers = new Map(members.map((record) => [record.address, record]));
    const theirsIsAll =
      merged.size === backends.size &&
      [...merged].every(([address, state]) => same(state, backends.get(address))) &&
      mergedMembers.size === theirMembers.size &&
      [...mergedMembers].every(([address, record]) => sameMember(record, theirMembers.get(address)));
    if (theirsIsAll && epoch >= this.#epoch) {
      this.#epoch = epoch;
      return "adopted";
    }
    this.#mint();
    return "minted";
  }

  #mint(): bigint {
    const counter =
      (epochCounter(this.#epoch) > this.#counterSeen ? epochCounter(this.#epoch) : this.#counterSeen) + 1n;
    this.#counterSeen = counter;
    this.#epoch = mintedAt(counter, this.stamp);
    return this.#epoch;
  }
}
