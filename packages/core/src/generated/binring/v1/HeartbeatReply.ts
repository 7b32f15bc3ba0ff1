// Original file: packages/core/proto/binring/v1/storage.proto

import type { KeeperSighting as _binring_v1_KeeperSighting, KeeperSighting__Output as _binring_v1_KeeperSighting__Output } from '../../binring/v1/KeeperSighting.js';
import type { MemberRecord as _binring_v1_MemberRecord, MemberRecord__Output as _binring_v1_MemberRecord__Output } from '../../binring/v1/MemberRecord.js';
import type { Long } from '@grpc/proto-loader';

export interface HeartbeatReply {
  /**
   * random per process start: a change means the backend restarted
   */
  'incarnation'?: (string);
  'ready'?: (boolean);
  'epoch'?: (number | string | Long);
  'clock'?: (number | string | Long);
  'keys'?: (number | string | Long);
  'lists'?: (number | string | Long);
  'bins'?: (number | string | Long);
  /**
   * the store answers (false while Redis is unreachable)
   */
  'storeOk'?: (boolean);
  /**
   * the store refused a write since the last grant of readiness: writers may
   * have skipped this backend, so it must be refilled before it is ready again
   */
  'needsFill'?: (boolean);
  /**
   * every keeper heard within the last minute (at most 64, the most recent)
   */
  'keepers'?: (_binring_v1_KeeperSighting)[];
  /**
   * the keeper whose claim holds and its term (empty and 0: unclaimed since start)
   */
  'owner'?: (string);
  'ownerTerm'?: (number | string | Long);
  /**
   * the membership this backend keeps, and its records when the request's
   * digest differs from it
   */
  'membersDigest'?: (string);
  'members'?: (_binring_v1_MemberRecord)[];
  /**
   * this backend holds its own membership record as leaving or removed: it is
   * not ready and takes no grant or renewal until a record makes it a member
   * again, so no readiness lease on it runs or can be revived
   */
  'retired'?: (boolean);
}

export interface HeartbeatReply__Output {
  /**
   * random per process start: a change means the backend restarted
   */
  'incarnation': (string);
  'ready': (boolean);
  'epoch': (string);
  'clock': (string);
  'keys': (string);
  'lists': (string);
  'bins': (string);
  /**
   * the store answers (false while Redis is unreachable)
   */
  'storeOk': (boolean);
  /**
   * the store refused a write since the last grant of readiness: writers may
   * have skipped this backend, so it must be refilled before it is ready again
   */
  'needsFill': (boolean);
  /**
   * every keeper heard within the last minute (at most 64, the most recent)
   */
  'keepers': (_binring_v1_KeeperSighting__Output)[];
  /**
   * the keeper whose claim holds and its term (empty and 0: unclaimed since start)
   */
  'owner': (string);
  'ownerTerm': (string);
  /**
   * the membership this backend keeps, and its records when the request's
   * digest differs from it
   */
  'membersDigest': (string);
  'members': (_binring_v1_MemberRecord__Output)[];
  /**
   * this backend holds its own membership record as leaving or removed: it is
   * not ready and takes no grant or renewal until a record makes it a member
   * again, so no readiness lease on it runs or can be revived
   */
  'retired': (boolean);
}
