// Original file: packages/core/proto/binring/v1/storage.proto

import type { Long } from '@grpc/proto-loader';

/**
 * How long ago a backend last heard a keeper's heartbeat, by its own clock. A
 * keeper cut off from another keeper but not from the backends learns from
 * these that the other still runs, and so does not take its slice over.
 */
export interface KeeperSighting {
  'keeper'?: (string);
  'ageMs'?: (number | string | Long);
}

/**
 * How long ago a backend last heard a keeper's heartbeat, by its own clock. A
 * keeper cut off from another keeper but not from the backends learns from
 * these that the other still runs, and so does not take its slice over.
 */
export interface KeeperSighting__Output {
  'keeper': (string);
  'ageMs': (string);
}
