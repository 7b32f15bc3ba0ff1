// Original file: packages/core/proto/binring/v1/storage.proto

import type { Long } from '@grpc/proto-loader';

export interface ClockReply {
  'clock'?: (number | string | Long);
}

export interface ClockReply__Output {
  'clock': (string);
}
