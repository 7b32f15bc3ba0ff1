// Original file: packages/core/proto/binring/v1/keeper.proto

import type { Long } from '@grpc/proto-loader';

/**
 * What a backend's last heartbeat answer said.
 */
export interface StatusBackendCounts {
  'clock'?: (number | string | Long);
  'keys'?: (number | string | Long);
  'lists'?: (number | string | Long);
  'bins'?: (number | string | Long);
}

/**
 * What a backend's last heartbeat answer said.
 */
export interface StatusBackendCounts__Output {
  'clock': (string);
  'keys': (string);
  'lists': (string);
  'bins': (string);
}
