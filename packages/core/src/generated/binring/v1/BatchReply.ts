// Original file: proto/binring/v1/storage.proto

import type { OperationResult as _binring_v1_OperationResult, OperationResult__Output as _binring_v1_OperationResult__Output } from '../../binring/v1/OperationResult.js';

export interface BatchReply {
  'results'?: (_binring_v1_OperationResult)[];
}

export interface BatchReply__Output {
  'results': (_binring_v1_OperationResult__Output)[];
}
