// Original file: packages/core/proto/binring/v1/storage.proto

import type { GetRequest as _binring_v1_GetRequest, GetRequest__Output as _binring_v1_GetRequest__Output } from '../../binring/v1/GetRequest.js';
import type { SetRequest as _binring_v1_SetRequest, SetRequest__Output as _binring_v1_SetRequest__Output } from '../../binring/v1/SetRequest.js';
import type { PatternRequest as _binring_v1_PatternRequest, PatternRequest__Output as _binring_v1_PatternRequest__Output } from '../../binring/v1/PatternRequest.js';
import type { ListGetRequest as _binring_v1_ListGetRequest, ListGetRequest__Output as _binring_v1_ListGetRequest__Output } from '../../binring/v1/ListGetRequest.js';
import type { ClockRequest as _binring_v1_ClockRequest, ClockRequest__Output as _binring_v1_ClockRequest__Output } from '../../binring/v1/ClockRequest.js';
import type { WriteRequest as _binring_v1_WriteRequest, WriteRequest__Output as _binring_v1_WriteRequest__Output } from '../../binring/v1/WriteRequest.js';
import type { ClaimRequest as _binring_v1_ClaimRequest, ClaimRequest__Output as _binring_v1_ClaimRequest__Output } from '../../binring/v1/ClaimRequest.js';
import type { ReleaseRequest as _binring_v1_ReleaseRequest, ReleaseRequest__Output as _binring_v1_ReleaseRequest__Output } from '../../binring/v1/ReleaseRequest.js';

export interface Operation {
  'get'?: (_binring_v1_GetRequest | null);
  'set'?: (_binring_v1_SetRequest | null);
  'keys'?: (_binring_v1_PatternRequest | null);
  'listGet'?: (_binring_v1_ListGetRequest | null);
  'listAppend'?: (_binring_v1_SetRequest | null);
  'listRemove'?: (_binring_v1_SetRequest | null);
  'listKeys'?: (_binring_v1_PatternRequest | null);
  'clock'?: (_binring_v1_ClockRequest | null);
  'write'?: (_binring_v1_WriteRequest | null);
  'claim'?: (_binring_v1_ClaimRequest | null);
  'release'?: (_binring_v1_ReleaseRequest | null);
  'op'?: "get"|"set"|"keys"|"listGet"|"listAppend"|"listRemove"|"listKeys"|"clock"|"write"|"claim"|"release";
}

export interface Operation__Output {
  'get'?: (_binring_v1_GetRequest__Output | null);
  'set'?: (_binring_v1_SetRequest__Output | null);
  'keys'?: (_binring_v1_PatternRequest__Output | null);
  'listGet'?: (_binring_v1_ListGetRequest__Output | null);
  'listAppend'?: (_binring_v1_SetRequest__Output | null);
  'listRemove'?: (_binring_v1_SetRequest__Output | null);
  'listKeys'?: (_binring_v1_PatternRequest__Output | null);
  'clock'?: (_binring_v1_ClockRequest__Output | null);
  'write'?: (_binring_v1_WriteRequest__Output | null);
  'claim'?: (_binring_v1_ClaimRequest__Output | null);
  'release'?: (_binring_v1_ReleaseRequest__Output | null);
  'op'?: "get"|"set"|"keys"|"listGet"|"listAppend"|"listRemove"|"listKeys"|"clock"|"write"|"claim"|"release";
}
