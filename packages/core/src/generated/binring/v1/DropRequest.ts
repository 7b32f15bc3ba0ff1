// Original file: packages/core/proto/binring/v1/storage.proto

import type { RingRange as _binring_v1_RingRange, RingRange__Output as _binring_v1_RingRange__Output } from '../../binring/v1/RingRange.js';
import type { Long } from '@grpc/proto-loader';

export interface DropRequest {
  'ranges'?: (_binring_v1_RingRange)[];
  /**
   * the keeper's view epoch when it sent the drop: refused (STALE_EPOCH) below
   * the backend's, and cut short between bins if the backend's rises past it,
   * since a newer view may have made this backend a holder of those bins again
   */
  'epoch'?: (number | string | Long);
}

export interface DropRequest__Output {
  'ranges': (_binring_v1_RingRange__Output)[];
  /**
   * the keeper's view epoch when it sent the drop: refused (STALE_EPOCH) below
   * the backend's, and cut short between bins if the backend's rises past it,
   * since a newer view may have made this backend a holder of those bins again
   */
  'epoch': (string);
}
