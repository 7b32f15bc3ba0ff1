// Original file: packages/core/proto/binring/v1/storage.proto

import type { HeartbeatRequest as _binring_v1_HeartbeatRequest, HeartbeatRequest__Output as _binring_v1_HeartbeatRequest__Output } from '../../binring/v1/HeartbeatRequest.js';
import type { Long } from '@grpc/proto-loader';

export interface HeartbeatCall {
  /**
   * chosen by the sender, unique among its calls in flight on the stream
   */
  'id'?: (number | string | Long);
  'heartbeat'?: (_binring_v1_HeartbeatRequest | null);
}

export interface HeartbeatCall__Output {
  /**
   * chosen by the sender, unique among its calls in flight on the stream
   */
  'id': (string);
  'heartbeat': (_binring_v1_HeartbeatRequest__Output | null);
}
