// Original file: packages/core/proto/binring/v1/keeper.proto

import type { StatusRepairProgress as _binring_v1_StatusRepairProgress, StatusRepairProgress__Output as _binring_v1_StatusRepairProgress__Output } from '../../binring/v1/StatusRepairProgress.js';

export interface StatusRepair {
  /**
   * its intent in the keeper log; empty for a recovery
   */
  'id'?: (string);
  /**
   * "repair", "fill" or "recovery"
   */
  'kind'?: (string);
  'backend'?: (string);
  /**
   * "running", "queued", "committing" or "reading the keeper log"
   */
  'state'?: (string);
  /**
   * present while running
   */
  'progress'?: (_binring_v1_StatusRepairProgress | null);
}

export interface StatusRepair__Output {
  /**
   * its intent in the keeper log; empty for a recovery
   */
  'id': (string);
  /**
   * "repair", "fill" or "recovery"
   */
  'kind': (string);
  'backend': (string);
  /**
   * "running", "queued", "committing" or "reading the keeper log"
   */
  'state': (string);
  /**
   * present while running
   */
  'progress': (_binring_v1_StatusRepairProgress__Output | null);
}
