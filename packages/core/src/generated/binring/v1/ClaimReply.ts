// Original file: packages/core/proto/binring/v1/storage.proto

import type { Stamp as _binring_v1_Stamp, Stamp__Output as _binring_v1_Stamp__Output } from '../../binring/v1/Stamp.js';

export interface ClaimReply {
  /**
   * The largest stamp held for the write; absent when none.
   */
  'stamp'?: (_binring_v1_Stamp | null);
}

export interface ClaimReply__Output {
  /**
   * The largest stamp held for the write; absent when none.
   */
  'stamp': (_binring_v1_Stamp__Output | null);
}
