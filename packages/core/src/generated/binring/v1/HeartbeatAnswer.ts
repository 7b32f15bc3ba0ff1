// Original file: packages/core/proto/binring/v1/storage.proto

import type { HeartbeatReply as _binring_v1_HeartbeatReply, HeartbeatReply__Output as _binring_v1_HeartbeatReply__Output } from '../../binring/v1/HeartbeatReply.js';
import type { OperationError as _binring_v1_OperationError, OperationError__Output as _binring_v1_OperationError__Output } from '../../binring/v1/OperationError.js';
import type { Long } from '@grpc/proto-loader';

export interface HeartbeatAnswer {
  'id'?: (number | string | Long);
  'reply'?: (_binring_v1_HeartbeatReply | null);
  /**
   * the error the heartbeat failed with; the stream goes on
   */
  'error'?: (_binring_v1_OperationError | null);
  'outcome'?: "reply"|"error";
}

export interface HeartbeatAnswer__Output {
  'id': (string);
  'reply'?: (_binring_v1_HeartbeatReply__Output | null);
  /**
   * the error the heartbeat failed with; the stream goes on
   */
  'error'?: (_binring_v1_OperationError__Output | null);
  'outcome'?: "reply"|"error";
}
