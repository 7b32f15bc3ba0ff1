// Original file: packages/core/proto/binring/v1/keeper.proto

import type { BackendState as _binring_v1_BackendState, BackendState__Output as _binring_v1_BackendState__Output } from '../../binring/v1/BackendState.js';

/**
 * One member of the ring (removed backends are not listed).
 */
export interface BackendView {
  'address'?: (string);
  'state'?: (_binring_v1_BackendState);
  /**
   * DEAD only: its bins are still being re-copied onto the backends that stand
   * in for it, which therefore may lack acknowledged entries and serve no reads
   * of those bins until the repair is done
   */
  'repairing'?: (boolean);
  /**
   * its failure domain (empty: none); placement must use the same as the keepers'
   */
  'zone'?: (string);
  /**
   * being decommissioned (shown DEAD once its bins are being copied elsewhere)
   */
  'leaving'?: (boolean);
}

/**
 * One member of the ring (removed backends are not listed).
 */
export interface BackendView__Output {
  'address': (string);
  'state': (_binring_v1_BackendState__Output);
  /**
   * DEAD only: its bins are still being re-copied onto the backends that stand
   * in for it, which therefore may lack acknowledged entries and serve no reads
   * of those bins until the repair is done
   */
  'repairing': (boolean);
  /**
   * its failure domain (empty: none); placement must use the same as the keepers'
   */
  'zone': (string);
  /**
   * being decommissioned (shown DEAD once its bins are being copied elsewhere)
   */
  'leaving': (boolean);
}
