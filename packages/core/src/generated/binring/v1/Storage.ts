// Original file: packages/core/proto/binring/v1/storage.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ApplyReply as _binring_v1_ApplyReply, ApplyReply__Output as _binring_v1_ApplyReply__Output } from '../../binring/v1/ApplyReply.js';
import type { ApplyRequest as _binring_v1_ApplyRequest, ApplyRequest__Output as _binring_v1_ApplyRequest__Output } from '../../binring/v1/ApplyRequest.js';
import type { BatchReply as _binring_v1_BatchReply, BatchReply__Output as _binring_v1_BatchReply__Output } from '../../binring/v1/BatchReply.js';
import type { BatchRequest as _binring_v1_BatchRequest, BatchRequest__Output as _binring_v1_BatchRequest__Output } from '../../binring/v1/BatchRequest.js';
import type { ClockReply as _binring_v1_ClockReply, ClockReply__Output as _binring_v1_ClockReply__Output } from '../../binring/v1/ClockReply.js';
import type { ClockRequest as _binring_v1_ClockRequest, ClockRequest__Output as _binring_v1_ClockRequest__Output } from '../../binring/v1/ClockRequest.js';
import type { DropReply as _binring_v1_DropReply, DropReply__Output as _binring_v1_DropReply__Output } from '../../binring/v1/DropReply.js';
import type { DropRequest as _binring_v1_DropRequest, DropRequest__Output as _binring_v1_DropRequest__Output } from '../../binring/v1/DropRequest.js';
import type { EmptyReply as _binring_v1_EmptyReply, EmptyReply__Output as _binring_v1_EmptyReply__Output } from '../../binring/v1/EmptyReply.js';
import type { EmptyRequest as _binring_v1_EmptyRequest, EmptyRequest__Output as _binring_v1_EmptyRequest__Output } from '../../binring/v1/EmptyRequest.js';
import type { EntryBatch as _binring_v1_EntryBatch, EntryBatch__Output as _binring_v1_EntryBatch__Output } from '../../binring/v1/EntryBatch.js';
import type { GetReply as _binring_v1_GetReply, GetReply__Output as _binring_v1_GetReply__Output } from '../../binring/v1/GetReply.js';
import type { GetRequest as _binring_v1_GetRequest, GetRequest__Output as _binring_v1_GetRequest__Output } from '../../binring/v1/GetRequest.js';
import type { HeartbeatReply as _binring_v1_HeartbeatReply, HeartbeatReply__Output as _binring_v1_HeartbeatReply__Output } from '../../binring/v1/HeartbeatReply.js';
import type { HeartbeatRequest as _binring_v1_HeartbeatRequest, HeartbeatRequest__Output as _binring_v1_HeartbeatRequest__Output } from '../../binring/v1/HeartbeatRequest.js';
import type { KeysReply as _binring_v1_KeysReply, KeysReply__Output as _binring_v1_KeysReply__Output } from '../../binring/v1/KeysReply.js';
import type { ListGetReply as _binring_v1_ListGetReply, ListGetReply__Output as _binring_v1_ListGetReply__Output } from '../../binring/v1/ListGetReply.js';
import type { ListGetRequest as _binring_v1_ListGetRequest, ListGetRequest__Output as _binring_v1_ListGetRequest__Output } from '../../binring/v1/ListGetRequest.js';
import type { PatternRequest as _binring_v1_PatternRequest, PatternRequest__Output as _binring_v1_PatternRequest__Output } from '../../binring/v1/PatternRequest.js';
import type { ScanRequest as _binring_v1_ScanRequest, ScanRequest__Output as _binring_v1_ScanRequest__Output } from '../../binring/v1/ScanRequest.js';
import type { SetRequest as _binring_v1_SetRequest, SetRequest__Output as _binring_v1_SetRequest__Output } from '../../binring/v1/SetRequest.js';
import type { WriteReply as _binring_v1_WriteReply, WriteReply__Output as _binring_v1_WriteReply__Output } from '../../binring/v1/WriteReply.js';

/**
 * Storage is served by every backend. The data calls (Get .. Clock) are the
 * public single-backend contract; Batch carries many of them in one call, and
 * Pipe streams such batches (what the SDK uses); Apply, Scan, Drop and
 * Heartbeat serve replication and repair.
 */
export interface StorageClient extends grpc.Client {
  /**
   * Idempotent apply of already-stamped entries (replication and repair).
   */
  Apply(argument: _binring_v1_ApplyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_ApplyReply__Output>): grpc.ClientUnaryCall;
  Apply(argument: _binring_v1_ApplyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_ApplyReply__Output>): grpc.ClientUnaryCall;
  Apply(argument: _binring_v1_ApplyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_ApplyReply__Output>): grpc.ClientUnaryCall;
  Apply(argument: _binring_v1_ApplyRequest, callback: grpc.requestCallback<_binring_v1_ApplyReply__Output>): grpc.ClientUnaryCall;
  /**
   * Idempotent apply of already-stamped entries (replication and repair).
   */
  apply(argument: _binring_v1_ApplyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_ApplyReply__Output>): grpc.ClientUnaryCall;
  apply(argument: _binring_v1_ApplyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_ApplyReply__Output>): grpc.ClientUnaryCall;
  apply(argument: _binring_v1_ApplyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_ApplyReply__Output>): grpc.ClientUnaryCall;
  apply(argument: _binring_v1_ApplyRequest, callback: grpc.requestCallback<_binring_v1_ApplyReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Many operations in one call, answered in order; one operation's failure
   * does not fail the others.
   */
  Batch(argument: _binring_v1_BatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  Batch(argument: _binring_v1_BatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  Batch(argument: _binring_v1_BatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  Batch(argument: _binring_v1_BatchRequest, callback: grpc.requestCallback<_binring_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  /**
   * Many operations in one call, answered in order; one operation's failure
   * does not fail the others.
   */
  batch(argument: _binring_v1_BatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  batch(argument: _binring_v1_BatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  batch(argument: _binring_v1_BatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  batch(argument: _binring_v1_BatchRequest, callback: grpc.requestCallback<_binring_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  
  Clock(argument: _binring_v1_ClockRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_ClockReply__Output>): grpc.ClientUnaryCall;
  Clock(argument: _binring_v1_ClockRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_ClockReply__Output>): grpc.ClientUnaryCall;
  Clock(argument: _binring_v1_ClockRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_ClockReply__Output>): grpc.ClientUnaryCall;
  Clock(argument: _binring_v1_ClockRequest, callback: grpc.requestCallback<_binring_v1_ClockReply__Output>): grpc.ClientUnaryCall;
  clock(argument: _binring_v1_ClockRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_ClockReply__Output>): grpc.ClientUnaryCall;
  clock(argument: _binring_v1_ClockRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_ClockReply__Output>): grpc.ClientUnaryCall;
  clock(argument: _binring_v1_ClockRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_ClockReply__Output>): grpc.ClientUnaryCall;
  clock(argument: _binring_v1_ClockRequest, callback: grpc.requestCallback<_binring_v1_ClockReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Deletes every entry of the bins whose ring point falls in the ranges.
   */
  Drop(argument: _binring_v1_DropRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_DropReply__Output>): grpc.ClientUnaryCall;
  Drop(argument: _binring_v1_DropRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_DropReply__Output>): grpc.ClientUnaryCall;
  Drop(argument: _binring_v1_DropRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_DropReply__Output>): grpc.ClientUnaryCall;
  Drop(argument: _binring_v1_DropRequest, callback: grpc.requestCallback<_binring_v1_DropReply__Output>): grpc.ClientUnaryCall;
  /**
   * Deletes every entry of the bins whose ring point falls in the ranges.
   */
  drop(argument: _binring_v1_DropRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_DropReply__Output>): grpc.ClientUnaryCall;
  drop(argument: _binring_v1_DropRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_DropReply__Output>): grpc.ClientUnaryCall;
  drop(argument: _binring_v1_DropRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_DropReply__Output>): grpc.ClientUnaryCall;
  drop(argument: _binring_v1_DropRequest, callback: grpc.requestCallback<_binring_v1_DropReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Deletes every entry the backend holds, for a keeper about to fill it after
   * its death. Refused while it is ready or when it is not the incarnation
   * named; empties run one at a time, and each ends in a new incarnation, so
   * no fill that overlapped one can make the backend ready.
   */
  Empty(argument: _binring_v1_EmptyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_EmptyReply__Output>): grpc.ClientUnaryCall;
  Empty(argument: _binring_v1_EmptyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_EmptyReply__Output>): grpc.ClientUnaryCall;
  Empty(argument: _binring_v1_EmptyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_EmptyReply__Output>): grpc.ClientUnaryCall;
  Empty(argument: _binring_v1_EmptyRequest, callback: grpc.requestCallback<_binring_v1_EmptyReply__Output>): grpc.ClientUnaryCall;
  /**
   * Deletes every entry the backend holds, for a keeper about to fill it after
   * its death. Refused while it is ready or when it is not the incarnation
   * named; empties run one at a time, and each ends in a new incarnation, so
   * no fill that overlapped one can make the backend ready.
   */
  empty(argument: _binring_v1_EmptyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_EmptyReply__Output>): grpc.ClientUnaryCall;
  empty(argument: _binring_v1_EmptyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_EmptyReply__Output>): grpc.ClientUnaryCall;
  empty(argument: _binring_v1_EmptyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_EmptyReply__Output>): grpc.ClientUnaryCall;
  empty(argument: _binring_v1_EmptyRequest, callback: grpc.requestCallback<_binring_v1_EmptyReply__Output>): grpc.ClientUnaryCall;
  
  Get(argument: _binring_v1_GetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_GetReply__Output>): grpc.ClientUnaryCall;
  Get(argument: _binring_v1_GetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_GetReply__Output>): grpc.ClientUnaryCall;
  Get(argument: _binring_v1_GetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_GetReply__Output>): grpc.ClientUnaryCall;
  Get(argument: _binring_v1_GetRequest, callback: grpc.requestCallback<_binring_v1_GetReply__Output>): grpc.ClientUnaryCall;
  get(argument: _binring_v1_GetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_GetReply__Output>): grpc.ClientUnaryCall;
  get(argument: _binring_v1_GetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_GetReply__Output>): grpc.ClientUnaryCall;
  get(argument: _binring_v1_GetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_GetReply__Output>): grpc.ClientUnaryCall;
  get(argument: _binring_v1_GetRequest, callback: grpc.requestCallback<_binring_v1_GetReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Liveness probe and control channel from keepers: carries the view epoch,
   * the readiness lease and the clock floor, and reports the backend's state.
   */
  Heartbeat(argument: _binring_v1_HeartbeatRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_HeartbeatReply__Output>): grpc.ClientUnaryCall;
  Heartbeat(argument: _binring_v1_HeartbeatRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_HeartbeatReply__Output>): grpc.ClientUnaryCall;
  Heartbeat(argument: _binring_v1_HeartbeatRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_HeartbeatReply__Output>): grpc.ClientUnaryCall;
  Heartbeat(argument: _binring_v1_HeartbeatRequest, callback: grpc.requestCallback<_binring_v1_HeartbeatReply__Output>): grpc.ClientUnaryCall;
  /**
   * Liveness probe and control channel from keepers: carries the view epoch,
   * the readiness lease and the clock floor, and reports the backend's state.
   */
  heartbeat(argument: _binring_v1_HeartbeatRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_HeartbeatReply__Output>): grpc.ClientUnaryCall;
  heartbeat(argument: _binring_v1_HeartbeatRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_HeartbeatReply__Output>): grpc.ClientUnaryCall;
  heartbeat(argument: _binring_v1_HeartbeatRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_HeartbeatReply__Output>): grpc.ClientUnaryCall;
  heartbeat(argument: _binring_v1_HeartbeatRequest, callback: grpc.requestCallback<_binring_v1_HeartbeatReply__Output>): grpc.ClientUnaryCall;
  
  Keys(argument: _binring_v1_PatternRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_KeysReply__Output>): grpc.ClientUnaryCall;
  Keys(argument: _binring_v1_PatternRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_KeysReply__Output>): grpc.ClientUnaryCall;
  Keys(argument: _binring_v1_PatternRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_KeysReply__Output>): grpc.ClientUnaryCall;
  Keys(argument: _binring_v1_PatternRequest, callback: grpc.requestCallback<_binring_v1_KeysReply__Output>): grpc.ClientUnaryCall;
  keys(argument: _binring_v1_PatternRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_KeysReply__Output>): grpc.ClientUnaryCall;
  keys(argument: _binring_v1_PatternRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_KeysReply__Output>): grpc.ClientUnaryCall;
  keys(argument: _binring_v1_PatternRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_KeysReply__Output>): grpc.ClientUnaryCall;
  keys(argument: _binring_v1_PatternRequest, callback: grpc.requestCallback<_binring_v1_KeysReply__Output>): grpc.ClientUnaryCall;
  
  ListAppend(argument: _binring_v1_SetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  ListAppend(argument: _binring_v1_SetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  ListAppend(argument: _binring_v1_SetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  ListAppend(argument: _binring_v1_SetRequest, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  listAppend(argument: _binring_v1_SetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  listAppend(argument: _binring_v1_SetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  listAppend(argument: _binring_v1_SetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  listAppend(argument: _binring_v1_SetRequest, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  
  ListGet(argument: _binring_v1_ListGetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_ListGetReply__Output>): grpc.ClientUnaryCall;
  ListGet(argument: _binring_v1_ListGetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_ListGetReply__Output>): grpc.ClientUnaryCall;
  ListGet(argument: _binring_v1_ListGetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_ListGetReply__Output>): grpc.ClientUnaryCall;
  ListGet(argument: _binring_v1_ListGetRequest, callback: grpc.requestCallback<_binring_v1_ListGetReply__Output>): grpc.ClientUnaryCall;
  listGet(argument: _binring_v1_ListGetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_ListGetReply__Output>): grpc.ClientUnaryCall;
  listGet(argument: _binring_v1_ListGetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_ListGetReply__Output>): grpc.ClientUnaryCall;
  listGet(argument: _binring_v1_ListGetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_ListGetReply__Output>): grpc.ClientUnaryCall;
  listGet(argument: _binring_v1_ListGetRequest, callback: grpc.requestCallback<_binring_v1_ListGetReply__Output>): grpc.ClientUnaryCall;
  
  ListKeys(argument: _binring_v1_PatternRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_KeysReply__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _binring_v1_PatternRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_KeysReply__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _binring_v1_PatternRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_KeysReply__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _binring_v1_PatternRequest, callback: grpc.requestCallback<_binring_v1_KeysReply__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _binring_v1_PatternRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_KeysReply__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _binring_v1_PatternRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_KeysReply__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _binring_v1_PatternRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_KeysReply__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _binring_v1_PatternRequest, callback: grpc.requestCallback<_binring_v1_KeysReply__Output>): grpc.ClientUnaryCall;
  
  ListRemove(argument: _binring_v1_SetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  ListRemove(argument: _binring_v1_SetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  ListRemove(argument: _binring_v1_SetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  ListRemove(argument: _binring_v1_SetRequest, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  listRemove(argument: _binring_v1_SetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  listRemove(argument: _binring_v1_SetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  listRemove(argument: _binring_v1_SetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  listRemove(argument: _binring_v1_SetRequest, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * The SDK's data path: one long-lived stream per backend carrying batches,
   * each answered by its id as soon as it is done (possibly out of order). A
   * stream message costs far less than a unary call (shared/PERFORMANCE.md).
   */
  Pipe(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_binring_v1_BatchRequest, _binring_v1_BatchReply__Output>;
  Pipe(options?: grpc.CallOptions): grpc.ClientDuplexStream<_binring_v1_BatchRequest, _binring_v1_BatchReply__Output>;
  /**
   * The SDK's data path: one long-lived stream per backend carrying batches,
   * each answered by its id as soon as it is done (possibly out of order). A
   * stream message costs far less than a unary call (shared/PERFORMANCE.md).
   */
  pipe(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_binring_v1_BatchRequest, _binring_v1_BatchReply__Output>;
  pipe(options?: grpc.CallOptions): grpc.ClientDuplexStream<_binring_v1_BatchRequest, _binring_v1_BatchReply__Output>;
  
  /**
   * Streams every entry of the bins whose ring point falls in the ranges.
   */
  Scan(argument: _binring_v1_ScanRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_binring_v1_EntryBatch__Output>;
  Scan(argument: _binring_v1_ScanRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_binring_v1_EntryBatch__Output>;
  /**
   * Streams every entry of the bins whose ring point falls in the ranges.
   */
  scan(argument: _binring_v1_ScanRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_binring_v1_EntryBatch__Output>;
  scan(argument: _binring_v1_ScanRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_binring_v1_EntryBatch__Output>;
  
  Set(argument: _binring_v1_SetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  Set(argument: _binring_v1_SetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  Set(argument: _binring_v1_SetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  Set(argument: _binring_v1_SetRequest, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  set(argument: _binring_v1_SetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  set(argument: _binring_v1_SetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  set(argument: _binring_v1_SetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  set(argument: _binring_v1_SetRequest, callback: grpc.requestCallback<_binring_v1_WriteReply__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Storage is served by every backend. The data calls (Get .. Clock) are the
 * public single-backend contract; Batch carries many of them in one call, and
 * Pipe streams such batches (what the SDK uses); Apply, Scan, Drop and
 * Heartbeat serve replication and repair.
 */
export interface StorageHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Idempotent apply of already-stamped entries (replication and repair).
   */
  Apply: grpc.handleUnaryCall<_binring_v1_ApplyRequest__Output, _binring_v1_ApplyReply>;
  
  /**
   * Many operations in one call, answered in order; one operation's failure
   * does not fail the others.
   */
  Batch: grpc.handleUnaryCall<_binring_v1_BatchRequest__Output, _binring_v1_BatchReply>;
  
  Clock: grpc.handleUnaryCall<_binring_v1_ClockRequest__Output, _binring_v1_ClockReply>;
  
  /**
   * Deletes every entry of the bins whose ring point falls in the ranges.
   */
  Drop: grpc.handleUnaryCall<_binring_v1_DropRequest__Output, _binring_v1_DropReply>;
  
  /**
   * Deletes every entry the backend holds, for a keeper about to fill it after
   * its death. Refused while it is ready or when it is not the incarnation
   * named; empties run one at a time, and each ends in a new incarnation, so
   * no fill that overlapped one can make the backend ready.
   */
  Empty: grpc.handleUnaryCall<_binring_v1_EmptyRequest__Output, _binring_v1_EmptyReply>;
  
  Get: grpc.handleUnaryCall<_binring_v1_GetRequest__Output, _binring_v1_GetReply>;
  
  /**
   * Liveness probe and control channel from keepers: carries the view epoch,
   * the readiness lease and the clock floor, and reports the backend's state.
   */
  Heartbeat: grpc.handleUnaryCall<_binring_v1_HeartbeatRequest__Output, _binring_v1_HeartbeatReply>;
  
  Keys: grpc.handleUnaryCall<_binring_v1_PatternRequest__Output, _binring_v1_KeysReply>;
  
  ListAppend: grpc.handleUnaryCall<_binring_v1_SetRequest__Output, _binring_v1_WriteReply>;
  
  ListGet: grpc.handleUnaryCall<_binring_v1_ListGetRequest__Output, _binring_v1_ListGetReply>;
  
  ListKeys: grpc.handleUnaryCall<_binring_v1_PatternRequest__Output, _binring_v1_KeysReply>;
  
  ListRemove: grpc.handleUnaryCall<_binring_v1_SetRequest__Output, _binring_v1_WriteReply>;
  
  /**
   * The SDK's data path: one long-lived stream per backend carrying batches,
   * each answered by its id as soon as it is done (possibly out of order). A
   * stream message costs far less than a unary call (shared/PERFORMANCE.md).
   */
  Pipe: grpc.handleBidiStreamingCall<_binring_v1_BatchRequest__Output, _binring_v1_BatchReply>;
  
  /**
   * Streams every entry of the bins whose ring point falls in the ranges.
   */
  Scan: grpc.handleServerStreamingCall<_binring_v1_ScanRequest__Output, _binring_v1_EntryBatch>;
  
  Set: grpc.handleUnaryCall<_binring_v1_SetRequest__Output, _binring_v1_WriteReply>;
  
}

export interface StorageDefinition extends grpc.ServiceDefinition {
  Apply: MethodDefinition<_binring_v1_ApplyRequest, _binring_v1_ApplyReply, _binring_v1_ApplyRequest__Output, _binring_v1_ApplyReply__Output>
  Batch: MethodDefinition<_binring_v1_BatchRequest, _binring_v1_BatchReply, _binring_v1_BatchRequest__Output, _binring_v1_BatchReply__Output>
  Clock: MethodDefinition<_binring_v1_ClockRequest, _binring_v1_ClockReply, _binring_v1_ClockRequest__Output, _binring_v1_ClockReply__Output>
  Drop: MethodDefinition<_binring_v1_DropRequest, _binring_v1_DropReply, _binring_v1_DropRequest__Output, _binring_v1_DropReply__Output>
  Empty: MethodDefinition<_binring_v1_EmptyRequest, _binring_v1_EmptyReply, _binring_v1_EmptyRequest__Output, _binring_v1_EmptyReply__Output>
  Get: MethodDefinition<_binring_v1_GetRequest, _binring_v1_GetReply, _binring_v1_GetRequest__Output, _binring_v1_GetReply__Output>
  Heartbeat: MethodDefinition<_binring_v1_HeartbeatRequest, _binring_v1_HeartbeatReply, _binring_v1_HeartbeatRequest__Output, _binring_v1_HeartbeatReply__Output>
  Keys: MethodDefinition<_binring_v1_PatternRequest, _binring_v1_KeysReply, _binring_v1_PatternRequest__Output, _binring_v1_KeysReply__Output>
  ListAppend: MethodDefinition<_binring_v1_SetRequest, _binring_v1_WriteReply, _binring_v1_SetRequest__Output, _binring_v1_WriteReply__Output>
  ListGet: MethodDefinition<_binring_v1_ListGetRequest, _binring_v1_ListGetReply, _binring_v1_ListGetRequest__Output, _binring_v1_ListGetReply__Output>
  ListKeys: MethodDefinition<_binring_v1_PatternRequest, _binring_v1_KeysReply, _binring_v1_PatternRequest__Output, _binring_v1_KeysReply__Output>
  ListRemove: MethodDefinition<_binring_v1_SetRequest, _binring_v1_WriteReply, _binring_v1_SetRequest__Output, _binring_v1_WriteReply__Output>
  Pipe: MethodDefinition<_binring_v1_BatchRequest, _binring_v1_BatchReply, _binring_v1_BatchRequest__Output, _binring_v1_BatchReply__Output>
  Scan: MethodDefinition<_binring_v1_ScanRequest, _binring_v1_EntryBatch, _binring_v1_ScanRequest__Output, _binring_v1_EntryBatch__Output>
  Set: MethodDefinition<_binring_v1_SetRequest, _binring_v1_WriteReply, _binring_v1_SetRequest__Output, _binring_v1_WriteReply__Output>
}
