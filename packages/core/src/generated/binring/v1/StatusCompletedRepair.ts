// Original file: packages/core/proto/binring/v1/keeper.proto

import type { Long } from '@grpc/proto-loader';

export interface StatusCompletedRepair {
  'id'?: (string);
  'kind'?: (string);
  'backend'?: (string);
  'entries'?: (number | string | Long);
  'ms'?: (number | string | Long);
  'recovered'?: (boolean);
}

export interface StatusCompletedRepair__Output {
  'id': (string);
  'kind': (string);
  'backend': (string);
  'entries': (string);
  'ms': (string);
  'recovered': (boolean);
}
