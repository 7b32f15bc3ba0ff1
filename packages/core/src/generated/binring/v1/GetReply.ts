// Original file: packages/core/proto/binring/v1/storage.proto

import type { Stamp as _binring_v1_Stamp, Stamp__Output as _binring_v1_Stamp__Output } from '../../binring/v1/Stamp.js';

export interface GetReply {
  'found'?: (boolean);
  'value'?: (string);
  /**
   * stamp of the entry that holds the value (or of the deletion)
   */
  'stamp'?: (_binring_v1_Stamp | null);
}

export interface GetReply__Output {
  'found': (boolean);
  'value': (string);
  /**
   * stamp of the entry that holds the value (or of the deletion)
   */
  'stamp': (_binring_v1_Stamp__Output | null);
}
