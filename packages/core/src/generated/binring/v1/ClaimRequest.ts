// Original file: packages/core/proto/binring/v1/storage.proto

import type { Target as _binring_v1_Target, Target__Output as _binring_v1_Target__Output } from '../../binring/v1/Target.js';

/**
 * Finds the stamp this backend holds for the write (writer, seq), if it
 * applied one within the last minute, and fences that write: from now on its
 * entries are taken only under this claim (or with the stamp the claim
 * settles on), so an attempt still in flight from a coordinator that was given
 * up on cannot land a second stamp for one write.
 */
export interface ClaimRequest {
  'target'?: (_binring_v1_Target | null);
  'writer'?: (string);
  'seq'?: (number);
  'claim'?: (string);
}

/**
 * Finds the stamp this backend holds for the write (writer, seq), if it
 * applied one within the last minute, and fences that write: from now on its
 * entries are taken only under this claim (or with the stamp the claim
 * settles on), so an attempt still in flight from a coordinator that was given
 * up on cannot land a second stamp for one write.
 */
export interface ClaimRequest__Output {
  'target': (_binring_v1_Target__Output | null);
  'writer': (string);
  'seq': (number);
  'claim': (string);
}
