// Original file: packages/core/proto/binring/v1/storage.proto

import type { ErrorReason as _binring_v1_ErrorReason, ErrorReason__Output as _binring_v1_ErrorReason__Output } from '../../binring/v1/ErrorReason.js';
import type { Stamp as _binring_v1_Stamp, Stamp__Output as _binring_v1_Stamp__Output } from '../../binring/v1/Stamp.js';
import type { Long } from '@grpc/proto-loader';

/**
 * A failed operation inside a batch: a gRPC status code, its message and its reason.
 */
export interface OperationError {
  'code'?: (number);
  'message'?: (string);
  'reason'?: (_binring_v1_ErrorReason);
  /**
   * STALE_VIEW only: the epoch the call was made with, and the backend's
   */
  'callerEpoch'?: (number | string | Long);
  'currentEpoch'?: (number | string | Long);
  /**
   * WriteRequest only: the replica whose call failed (the coordinator's own
   * entry when it failed itself), and the stamp and claim the write had by
   * then, which its next attempt keeps.
   */
  'replica'?: (string);
  'stamp'?: (_binring_v1_Stamp | null);
  'claim'?: (string);
}

/**
 * A failed operation inside a batch: a gRPC status code, its message and its reason.
 */
export interface OperationError__Output {
  'code': (number);
  'message': (string);
  'reason': (_binring_v1_ErrorReason__Output);
  /**
   * STALE_VIEW only: the epoch the call was made with, and the backend's
   */
  'callerEpoch': (string);
  'currentEpoch': (string);
  /**
   * WriteRequest only: the replica whose call failed (the coordinator's own
   * entry when it failed itself), and the stamp and claim the write had by
   * then, which its next attempt keeps.
   */
  'replica': (string);
  'stamp': (_binring_v1_Stamp__Output | null);
  'claim': (string);
}
