// The calls a BackendNode takes and what they answer, apart from how it
// answers them (backend-node.ts), so the gRPC service and in-process callers
// share one vocabulary.
import type { EntryKind, Member, Stamp } from "@binring/core";
import type { KeeperSighting } from "./keeper-sightings.js";
import type { Owner } from "./ownership.js";
import type { StoreStats } from "./store-engine.js";

/** Who is calling and under which cluster view. */
export interface CallTarget {
  bin: string;
  /** The caller's view epoch; 0n means no view (no fencing). */
  epoch: bigint;
  /** Reads only: refuse unless this backend holds every acknowledged entry. */
  requireReady: boolean;
}

export interface WriteRequest {
  kind: EntryKind;
  key: string;
  value: string;
  /** Apply this stamp as is (a replica copy); without it the backend stamps the entry. */
  stamp?: Stamp;
  /** When stamping: the clock is raised to this first. */
  atLeast?: bigint;
  /** When stamping: the writer's id and sequence number (else the backend's own). */
  writer?: string;
  seq?: number;
  /** With a stamp: the claim it is forwarded under (write-fences.ts). */
  claim?: string;
  /** A stamped set sent to every replica at once: the replicas after this one, which must hold it before readers here see it (withheld-entries.ts). */
  later?: readonly string[];
}

export interface WriteResult {
  stamp: Stamp;
  removed: number;
  /** An append that a later remove of its value got to first: it never shows (see ApplyOutcome). */
  superseded: boolean;
  /** A remove whose count was decided here by its writer while ready (see ApplyOutcome). */
  countDecided: boolean;
}

export interface EmptyResult {
  /** Bins deleted. */
  bins: number;
  /** The incarnation after the empty: the one a fill may make ready. */
  incarnation: string;
}

export interface HeartbeatCommand {
  epoch: bigint;
  clockFloor: bigint;
  /** true grants readiness, false revokes it, undefined leaves it. */
  ready?: boolean;
  /** How long a grant lasts; 0 means until revoked. */
  leaseMs: number;
  /** A grant applies only to this incarnation; undefined: any. */
  incarnation?: string;
  /** The grant follows a fill: it clears needsFill (a plain renewal does not). */
  filled?: boolean;
  /** The keeper sending it, whose sighting the backend records (keeper-sightings.ts). */
  keeper?: string;
  /** The sender's term as this backend's owner (ownership.ts); 0 or undefined: not sent as owner. */
  ownerTerm?: bigint;
  /** The sender's membership digest, and records to keep (kept-membership.ts). */
  membersDigest?: string;
  members?: Member[];
  /** Keep exactly `members`: the backend is being added, and what it kept may be another cluster's. */
  replaceMembers?: boolean;
  /** The member address the sender calls this backend at (kept-membership.ts `calledAs`). */
  member?: string;
}

export interface BackendState extends StoreStats {
  incarnation: string;
  ready: boolean;
  needsFill: boolean;
  /** Its own record says leaving or removed: it takes no grant (readiness.ts). */
  retired: boolean;
  epoch: bigint;
  clock: bigint;
  storeOk: boolean;
  /** Keepers this backend heard lately, and how long ago. */
  keepers: KeeperSighting[];
  /** The keeper whose claim holds, if any has claimed this backend since it started. */
  owner: Owner | undefined;
  /** The membership this backend keeps: its digest, and its records when the sender's digest differs. */
  membersDigest: string;
  members: Member[];
}
