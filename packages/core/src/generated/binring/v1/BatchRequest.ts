// Original file: packages/core/proto/binring/v1/storage.proto

import type { Operation as _binring_v1_Operation, Operation__Output as _binring_v1_Operation__Output } from '../../binring/v1/Operation.js';

export interface BatchRequest {
  'operations'?: (_binring_v1_Operation)[];
  /**
   * Pipe only: chosen by the caller, echoed in the reply.
   */
  'id'?: (number);
}

export interface BatchRequest__Output {
  'operations': (_binring_v1_Operation__Output)[];
  /**
   * Pipe only: chosen by the caller, echoed in the reply.
   */
  'id': (number);
}
