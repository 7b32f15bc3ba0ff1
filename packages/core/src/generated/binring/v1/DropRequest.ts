// Original file: packages/core/proto/binring/v1/storage.proto

import type { RingRange as _binring_v1_RingRange, RingRange__Output as _binring_v1_RingRange__Output } from '../../binring/v1/RingRange.js';

export interface DropRequest {
  'ranges'?: (_binring_v1_RingRange)[];
}

export interface DropRequest__Output {
  'ranges': (_binring_v1_RingRange__Output)[];
}
