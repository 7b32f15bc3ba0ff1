// Original file: packages/core/proto/binring/v1/keeper.proto

import type { Long } from '@grpc/proto-loader';

/**
 * A lease renewal the sender made: how long ago it last granted readiness.
 */
export interface LeaseGrant {
  'backend'?: (string);
  'ageMs'?: (number | string | Long);
}

/**
 * A lease renewal the sender made: how long ago it last granted readiness.
 */
export interface LeaseGrant__Output {
  'backend': (string);
  'ageMs': (string);
}
