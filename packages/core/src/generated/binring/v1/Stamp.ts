// Original file: packages/core/proto/binring/v1/storage.proto

import type { Long } from '@grpc/proto-loader';

/**
 * A stamp orders entries: by clock, then writer, then seq. Writer ids are
 * unique per client instance and seq per writer, so a stamp is unique.
 */
export interface Stamp {
  'clock'?: (number | string | Long);
  'writer'?: (string);
  'seq'?: (number);
}

/**
 * A stamp orders entries: by clock, then writer, then seq. Writer ids are
 * unique per client instance and seq per writer, so a stamp is unique.
 */
export interface Stamp__Output {
  'clock': (string);
  'writer': (string);
  'seq': (number);
}
