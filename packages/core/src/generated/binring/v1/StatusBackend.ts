// Original file: packages/core/proto/binring/v1/keeper.proto

import type { BackendState as _binring_v1_BackendState, BackendState__Output as _binring_v1_BackendState__Output } from '../../binring/v1/BackendState.js';
import type { StatusBackendCounts as _binring_v1_StatusBackendCounts, StatusBackendCounts__Output as _binring_v1_StatusBackendCounts__Output } from '../../binring/v1/StatusBackendCounts.js';
import type { Long } from '@grpc/proto-loader';

export interface StatusBackend {
  'address'?: (string);
  /**
   * as its owner sees it (SUSPECT shows there), elsewhere as the view publishes it
   */
  'state'?: (_binring_v1_BackendState);
  /**
   * the keeper that owns it; empty when no live keeper does
   */
  'owner'?: (string);
  /**
   * heartbeats missed in a row
   */
  'misses'?: (number);
  /**
   * absent until the backend answered once
   */
  'last'?: (_binring_v1_StatusBackendCounts | null);
  'lastAnswerMsAgo'?: (number | string | Long);
  /**
   * the keeper whose claim the backend last reported holding (its owner term):
   * differs from owner while a takeover or hand-back settles; empty until it
   * answered, or while no keeper has claimed it since it started
   */
  'claimedBy'?: (string);
  /**
   * its failure domain (empty: none)
   */
  'zone'?: (string);
  /**
   * being decommissioned (binring admin remove-backend): it leaves the ring
   * once its bins are on their new replicas
   */
  'leaving'?: (boolean);
}

export interface StatusBackend__Output {
  'address': (string);
  /**
   * as its owner sees it (SUSPECT shows there), elsewhere as the view publishes it
   */
  'state': (_binring_v1_BackendState__Output);
  /**
   * the keeper that owns it; empty when no live keeper does
   */
  'owner': (string);
  /**
   * heartbeats missed in a row
   */
  'misses': (number);
  /**
   * absent until the backend answered once
   */
  'last': (_binring_v1_StatusBackendCounts__Output | null);
  'lastAnswerMsAgo': (string);
  /**
   * the keeper whose claim the backend last reported holding (its owner term):
   * differs from owner while a takeover or hand-back settles; empty until it
   * answered, or while no keeper has claimed it since it started
   */
  'claimedBy': (string);
  /**
   * its failure domain (empty: none)
   */
  'zone': (string);
  /**
   * being decommissioned (binring admin remove-backend): it leaves the ring
   * once its bins are on their new replicas
   */
  'leaving': (boolean);
}
