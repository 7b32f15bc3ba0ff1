// Original file: packages/core/proto/binring/v1/storage.proto

import type { OperationError as _binring_v1_OperationError, OperationError__Output as _binring_v1_OperationError__Output } from '../../binring/v1/OperationError.js';
import type { GetReply as _binring_v1_GetReply, GetReply__Output as _binring_v1_GetReply__Output } from '../../binring/v1/GetReply.js';
import type { WriteReply as _binring_v1_WriteReply, WriteReply__Output as _binring_v1_WriteReply__Output } from '../../binring/v1/WriteReply.js';
import type { KeysReply as _binring_v1_KeysReply, KeysReply__Output as _binring_v1_KeysReply__Output } from '../../binring/v1/KeysReply.js';
import type { ListGetReply as _binring_v1_ListGetReply, ListGetReply__Output as _binring_v1_ListGetReply__Output } from '../../binring/v1/ListGetReply.js';
import type { ClockReply as _binring_v1_ClockReply, ClockReply__Output as _binring_v1_ClockReply__Output } from '../../binring/v1/ClockReply.js';
import type { ClaimReply as _binring_v1_ClaimReply, ClaimReply__Output as _binring_v1_ClaimReply__Output } from '../../binring/v1/ClaimReply.js';
import type { ReleaseReply as _binring_v1_ReleaseReply, ReleaseReply__Output as _binring_v1_ReleaseReply__Output } from '../../binring/v1/ReleaseReply.js';

export interface OperationResult {
  'error'?: (_binring_v1_OperationError | null);
  'get'?: (_binring_v1_GetReply | null);
  'write'?: (_binring_v1_WriteReply | null);
  'keys'?: (_binring_v1_KeysReply | null);
  'listGet'?: (_binring_v1_ListGetReply | null);
  'clock'?: (_binring_v1_ClockReply | null);
  'claim'?: (_binring_v1_ClaimReply | null);
  'release'?: (_binring_v1_ReleaseReply | null);
  'result'?: "error"|"get"|"write"|"keys"|"listGet"|"clock"|"claim"|"release";
}

export interface OperationResult__Output {
  'error'?: (_binring_v1_OperationError__Output | null);
  'get'?: (_binring_v1_GetReply__Output | null);
  'write'?: (_binring_v1_WriteReply__Output | null);
  'keys'?: (_binring_v1_KeysReply__Output | null);
  'listGet'?: (_binring_v1_ListGetReply__Output | null);
  'clock'?: (_binring_v1_ClockReply__Output | null);
  'claim'?: (_binring_v1_ClaimReply__Output | null);
  'release'?: (_binring_v1_ReleaseReply__Output | null);
  'result'?: "error"|"get"|"write"|"keys"|"listGet"|"clock"|"claim"|"release";
}
