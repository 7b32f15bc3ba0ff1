// Original file: packages/core/proto/binring/v1/storage.proto

import type { Target as _binring_v1_Target, Target__Output as _binring_v1_Target__Output } from '../../binring/v1/Target.js';
import type { Long } from '@grpc/proto-loader';

export interface ClockRequest {
  'target'?: (_binring_v1_Target | null);
  'atLeast'?: (number | string | Long);
  /**
   * Only raise the clock to at_least (no tick) and return where it stands.
   */
  'raiseOnly'?: (boolean);
}

export interface ClockRequest__Output {
  'target': (_binring_v1_Target__Output | null);
  'atLeast': (string);
  /**
   * Only raise the clock to at_least (no tick) and return where it stands.
   */
  'raiseOnly': (boolean);
}
