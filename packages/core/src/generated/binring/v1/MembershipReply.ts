// Original file: packages/core/proto/binring/v1/keeper.proto

import type { MemberStatus as _binring_v1_MemberStatus, MemberStatus__Output as _binring_v1_MemberStatus__Output } from '../../binring/v1/MemberStatus.js';

export interface MembershipReply {
  /**
   * false when the request changed nothing (already a member; already leaving)
   */
  'changed'?: (boolean);
  /**
   * the backend's membership now: member, leaving or removed
   */
  'status'?: (_binring_v1_MemberStatus);
}

export interface MembershipReply__Output {
  /**
   * false when the request changed nothing (already a member; already leaving)
   */
  'changed': (boolean);
  /**
   * the backend's membership now: member, leaving or removed
   */
  'status': (_binring_v1_MemberStatus__Output);
}
