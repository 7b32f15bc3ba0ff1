// Original file: packages/core/proto/binring/v1/storage.proto

import type { Target as _binring_v1_Target, Target__Output as _binring_v1_Target__Output } from '../../binring/v1/Target.js';
import type { Stamp as _binring_v1_Stamp, Stamp__Output as _binring_v1_Stamp__Output } from '../../binring/v1/Stamp.js';

/**
 * A set's entry (bin, key, stamp) is on every replica its write listed: a
 * backend withholding it (SetRequest.later_replicas) shows it from now on.
 * Sent by the write's coordinator on a link, as later_replicas is; the
 * target's epoch is not fenced (what it says stays true in a newer view).
 */
export interface ReleaseRequest {
  'target'?: (_binring_v1_Target | null);
  'key'?: (string);
  'stamp'?: (_binring_v1_Stamp | null);
}

/**
 * A set's entry (bin, key, stamp) is on every replica its write listed: a
 * backend withholding it (SetRequest.later_replicas) shows it from now on.
 * Sent by the write's coordinator on a link, as later_replicas is; the
 * target's epoch is not fenced (what it says stays true in a newer view).
 */
export interface ReleaseRequest__Output {
  'target': (_binring_v1_Target__Output | null);
  'key': (string);
  'stamp': (_binring_v1_Stamp__Output | null);
}
