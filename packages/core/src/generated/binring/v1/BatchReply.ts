// Original file: packages/core/proto/binring/v1/storage.proto

import type { OperationResult as _binring_v1_OperationResult, OperationResult__Output as _binring_v1_OperationResult__Output } from '../../binring/v1/OperationResult.js';

export interface BatchReply {
  'results'?: (_binring_v1_OperationResult)[];
  /**
   * Pipe only: the id of the request this answers.
   */
  'id'?: (number);
  /**
   * Pipe only: more results of this id follow in the next message. A reply
   * larger than one message should carry is split into consecutive messages,
   * each holding the next results in order.
   */
  'partial'?: (boolean);
}

export interface BatchReply__Output {
  'results': (_binring_v1_OperationResult__Output)[];
  /**
   * Pipe only: the id of the request this answers.
   */
  'id': (number);
  /**
   * Pipe only: more results of this id follow in the next message. A reply
   * larger than one message should carry is split into consecutive messages,
   * each holding the next results in order.
   */
  'partial': (boolean);
}
