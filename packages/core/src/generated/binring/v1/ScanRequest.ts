// Original file: packages/core/proto/binring/v1/storage.proto

import type { RingRange as _binring_v1_RingRange, RingRange__Output as _binring_v1_RingRange__Output } from '../../binring/v1/RingRange.js';

export interface ScanRequest {
  'ranges'?: (_binring_v1_RingRange)[];
  /**
   * entries per streamed message
   */
  'batchSize'?: (number);
  /**
   * Most bytes of entries (as encoded in the reply) sent per second: the
   * backend reads its store no faster. 0: as fast as the caller takes them.
   */
  'bytesPerSecond'?: (number);
  /**
   * Refused (NOT_READY) unless the backend serves ready-only reads, and failed
   * at its end unless it has been ready throughout (the same incarnation): a
   * copy that reads this backend alone needs every acknowledged entry of it.
   */
  'requireReady'?: (boolean);
}

export interface ScanRequest__Output {
  'ranges': (_binring_v1_RingRange__Output)[];
  /**
   * entries per streamed message
   */
  'batchSize': (number);
  /**
   * Most bytes of entries (as encoded in the reply) sent per second: the
   * backend reads its store no faster. 0: as fast as the caller takes them.
   */
  'bytesPerSecond': (number);
  /**
   * Refused (NOT_READY) unless the backend serves ready-only reads, and failed
   * at its end unless it has been ready throughout (the same incarnation): a
   * copy that reads this backend alone needs every acknowledged entry of it.
   */
  'requireReady': (boolean);
}
