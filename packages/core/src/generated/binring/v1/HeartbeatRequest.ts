// Original file: packages/core/proto/binring/v1/storage.proto

import type { Readiness as _binring_v1_Readiness, Readiness__Output as _binring_v1_Readiness__Output } from '../../binring/v1/Readiness.js';
import type { MemberRecord as _binring_v1_MemberRecord, MemberRecord__Output as _binring_v1_MemberRecord__Output } from '../../binring/v1/MemberRecord.js';
import type { Long } from '@grpc/proto-loader';

export interface HeartbeatRequest {
  /**
   * view epoch the sender acts on; the backend remembers the largest seen and
   * fences calls from older views
   */
  'epoch'?: (number | string | Long);
  /**
   * raise the clock to at least this
   */
  'clockFloor'?: (number | string | Long);
  /**
   * READY grants readiness for lease_ms (0: without expiry); NOT_READY
   * revokes it; UNSPECIFIED leaves it as it is
   */
  'readiness'?: (_binring_v1_Readiness);
  'leaseMs'?: (number | string | Long);
  /**
   * A READY grant applies only to this incarnation (empty: any), so a backend
   * that restarted since the keeper last heard from it is never made ready
   * before it is filled.
   */
  'incarnation'?: (string);
  /**
   * READY after a fill: clears needs_fill. A plain renewal does not.
   */
  'filled'?: (boolean);
  /**
   * The keeper sending it, as the cluster file names it (at most 255 bytes;
   * empty: not a keeper's). The backend reports when it last heard each one
   * (HeartbeatReply.keepers).
   */
  'keeper'?: (string);
  /**
   * The sender's term as the backend's owner (0: not sent as its owner, e.g. a
   * standby renewal). A larger term than the backend's claims it; a smaller
   * one is a keeper that lost it, whose heartbeat then grants, renews and
   * revokes nothing. Below 2^62.
   */
  'ownerTerm'?: (number | string | Long);
  /**
   * The sender's membership digest (membership.ts), and its member records
   * when the backend's last reported digest differed: the backend merges and
   * keeps them, so the membership survives every keeper restarting.
   */
  'membersDigest'?: (string);
  'members'?: (_binring_v1_MemberRecord)[];
  /**
   * keep exactly `members`, dropping what was kept before: sent when a backend
   * is added, since what it kept may be another cluster's
   */
  'replaceMembers'?: (boolean);
  /**
   * The member address the sender calls this backend at (empty: none named).
   * A backend is one member: called as a second address while the first is
   * still a member (a host name and its IP reaching one process), it refuses
   * with FAILED_PRECONDITION, so one process never holds two copies of a bin.
   */
  'member'?: (string);
}

export interface HeartbeatRequest__Output {
  /**
   * view epoch the sender acts on; the backend remembers the largest seen and
   * fences calls from older views
   */
  'epoch': (string);
  /**
   * raise the clock to at least this
   */
  'clockFloor': (string);
  /**
   * READY grants readiness for lease_ms (0: without expiry); NOT_READY
   * revokes it; UNSPECIFIED leaves it as it is
   */
  'readiness': (_binring_v1_Readiness__Output);
  'leaseMs': (string);
  /**
   * A READY grant applies only to this incarnation (empty: any), so a backend
   * that restarted since the keeper last heard from it is never made ready
   * before it is filled.
   */
  'incarnation': (string);
  /**
   * READY after a fill: clears needs_fill. A plain renewal does not.
   */
  'filled': (boolean);
  /**
   * The keeper sending it, as the cluster file names it (at most 255 bytes;
   * empty: not a keeper's). The backend reports when it last heard each one
   * (HeartbeatReply.keepers).
   */
  'keeper': (string);
  /**
   * The sender's term as the backend's owner (0: not sent as its owner, e.g. a
   * standby renewal). A larger term than the backend's claims it; a smaller
   * one is a keeper that lost it, whose heartbeat then grants, renews and
   * revokes nothing. Below 2^62.
   */
  'ownerTerm': (string);
  /**
   * The sender's membership digest (membership.ts), and its member records
   * when the backend's last reported digest differed: the backend merges and
   * keeps them, so the membership survives every keeper restarting.
   */
  'membersDigest': (string);
  'members': (_binring_v1_MemberRecord__Output)[];
  /**
   * keep exactly `members`, dropping what was kept before: sent when a backend
   * is added, since what it kept may be another cluster's
   */
  'replaceMembers': (boolean);
  /**
   * The member address the sender calls this backend at (empty: none named).
   * A backend is one member: called as a second address while the first is
   * still a member (a host name and its IP reaching one process), it refuses
   * with FAILED_PRECONDITION, so one process never holds two copies of a bin.
   */
  'member': (string);
}
