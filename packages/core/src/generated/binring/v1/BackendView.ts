// Original file: packages/core/proto/binring/v1/keeper.proto

import type { BackendState as _binring_v1_BackendState, BackendState__Output as _binring_v1_BackendState__Output } from '../../binring/v1/BackendState.js';

export interface BackendView {
  'address'?: (string);
  'state'?: (_binring_v1_BackendState);
}

export interface BackendView__Output {
  'address': (string);
  'state': (_binring_v1_BackendState__Output);
}
