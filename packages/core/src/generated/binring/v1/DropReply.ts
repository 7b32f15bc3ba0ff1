// Original file: packages/core/proto/binring/v1/storage.proto

import type { Long } from '@grpc/proto-loader';

export interface DropReply {
  'bins'?: (number | string | Long);
}

export interface DropReply__Output {
  'bins': (string);
}
