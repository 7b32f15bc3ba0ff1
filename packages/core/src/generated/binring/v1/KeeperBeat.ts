// Original file: packages/core/proto/binring/v1/keeper.proto

import type { PublishedBackend as _binring_v1_PublishedBackend, PublishedBackend__Output as _binring_v1_PublishedBackend__Output } from '../../binring/v1/PublishedBackend.js';
import type { LeaseGrant as _binring_v1_LeaseGrant, LeaseGrant__Output as _binring_v1_LeaseGrant__Output } from '../../binring/v1/LeaseGrant.js';
import type { MemberRecord as _binring_v1_MemberRecord, MemberRecord__Output as _binring_v1_MemberRecord__Output } from '../../binring/v1/MemberRecord.js';
import type { Long } from '@grpc/proto-loader';

export interface KeeperBeat {
  /**
   * the sender's address in the cluster file
   */
  'keeper'?: (string);
  /**
   * random per keeper process start
   */
  'incarnation'?: (string);
  /**
   * the view the sender holds: its epoch and every backend it knows
   */
  'epoch'?: (number | string | Long);
  'backends'?: (_binring_v1_PublishedBackend)[];
  /**
   * backends the sender owns now (its slice, after hand-backs)
   */
  'slice'?: (string)[];
  /**
   * backends whose repair or fill the sender is running or has queued
   */
  'working'?: (string)[];
  /**
   * the largest clock among the sender's slice: clocks converge across slices
   */
  'maxClock'?: (number | string | Long);
  'grants'?: (_binring_v1_LeaseGrant)[];
  /**
   * backends of the sender's slice that are not ready as it sees them (suspect,
   * dead, filling): no other keeper may renew their leases
   */
  'withheld'?: (string)[];
  /**
   * the membership the sender holds (part of the view: its epoch covers it)
   */
  'members'?: (_binring_v1_MemberRecord)[];
}

export interface KeeperBeat__Output {
  /**
   * the sender's address in the cluster file
   */
  'keeper': (string);
  /**
   * random per keeper process start
   */
  'incarnation': (string);
  /**
   * the view the sender holds: its epoch and every backend it knows
   */
  'epoch': (string);
  'backends': (_binring_v1_PublishedBackend__Output)[];
  /**
   * backends the sender owns now (its slice, after hand-backs)
   */
  'slice': (string)[];
  /**
   * backends whose repair or fill the sender is running or has queued
   */
  'working': (string)[];
  /**
   * the largest clock among the sender's slice: clocks converge across slices
   */
  'maxClock': (string);
  'grants': (_binring_v1_LeaseGrant__Output)[];
  /**
   * backends of the sender's slice that are not ready as it sees them (suspect,
   * dead, filling): no other keeper may renew their leases
   */
  'withheld': (string)[];
  /**
   * the membership the sender holds (part of the view: its epoch covers it)
   */
  'members': (_binring_v1_MemberRecord__Output)[];
}
