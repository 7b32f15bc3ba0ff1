// Original file: packages/core/proto/binring/v1/keeper.proto

import type { StatusKeeper as _binring_v1_StatusKeeper, StatusKeeper__Output as _binring_v1_StatusKeeper__Output } from '../../binring/v1/StatusKeeper.js';
import type { StatusBackend as _binring_v1_StatusBackend, StatusBackend__Output as _binring_v1_StatusBackend__Output } from '../../binring/v1/StatusBackend.js';
import type { StatusRepair as _binring_v1_StatusRepair, StatusRepair__Output as _binring_v1_StatusRepair__Output } from '../../binring/v1/StatusRepair.js';
import type { StatusCompletedRepair as _binring_v1_StatusCompletedRepair, StatusCompletedRepair__Output as _binring_v1_StatusCompletedRepair__Output } from '../../binring/v1/StatusCompletedRepair.js';
import type { Long } from '@grpc/proto-loader';

/**
 * One keeper's report on the cluster. Its HTTP /status serves the same
 * content as JSON, field for field (camelCase there; an empty owner, an
 * absent `last` or `progress`, and an empty repair id are left out or null).
 */
export interface StatusReply {
  /**
   * the answering keeper's name, and its address in the cluster file
   */
  'keeper'?: (string);
  'address'?: (string);
  /**
   * the epoch of its view
   */
  'epoch'?: (number | string | Long);
  /**
   * beats it sent to peers since it started
   */
  'beatsSent'?: (number | string | Long);
  'keepers'?: (_binring_v1_StatusKeeper)[];
  'backends'?: (_binring_v1_StatusBackend)[];
  /**
   * the running one first, then queued, committing, and those waiting on the keeper log
   */
  'repairs'?: (_binring_v1_StatusRepair)[];
  /**
   * the last ten finished, oldest first
   */
  'completedRepairs'?: (_binring_v1_StatusCompletedRepair)[];
  /**
   * the answering keeper is on no keeper ring (not added yet, or removed): it
   * acts on nothing and only learns the membership, waiting to be added
   */
  'offRing'?: (boolean);
}

/**
 * One keeper's report on the cluster. Its HTTP /status serves the same
 * content as JSON, field for field (camelCase there; an empty owner, an
 * absent `last` or `progress`, and an empty repair id are left out or null).
 */
export interface StatusReply__Output {
  /**
   * the answering keeper's name, and its address in the cluster file
   */
  'keeper': (string);
  'address': (string);
  /**
   * the epoch of its view
   */
  'epoch': (string);
  /**
   * beats it sent to peers since it started
   */
  'beatsSent': (string);
  'keepers': (_binring_v1_StatusKeeper__Output)[];
  'backends': (_binring_v1_StatusBackend__Output)[];
  /**
   * the running one first, then queued, committing, and those waiting on the keeper log
   */
  'repairs': (_binring_v1_StatusRepair__Output)[];
  /**
   * the last ten finished, oldest first
   */
  'completedRepairs': (_binring_v1_StatusCompletedRepair__Output)[];
  /**
   * the answering keeper is on no keeper ring (not added yet, or removed): it
   * acts on nothing and only learns the membership, waiting to be added
   */
  'offRing': (boolean);
}
