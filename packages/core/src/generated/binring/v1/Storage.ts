// Original file: packages/core/proto/binring/v1/storage.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { BatchReply as _binring_v1_BatchReply, BatchReply__Output as _binring_v1_BatchReply__Output } from '../../binring/v1/BatchReply.js';
import type { BatchRequest as _binring_v1_BatchRequest, BatchRequest__Output as _binring_v1_BatchRequest__Output } from '../../binring/v1/BatchRequest.js';
import type { ClockReply as _binring_v1_ClockReply, ClockReply__Output as _binring_v1_ClockReply__Output } from '../../binring/v1/ClockReply.js';
import type { ClockRequest as _binring_v1_ClockRequest, ClockRequest__Output as _binring_v1_ClockRequest__Output } from '../../binring/v1/ClockRequest.js';
import type { GetReply as _binring_v1_GetReply, GetReply__Output as _binring_v1_GetReply__Output } from '../../binring/v1/GetReply.js';
import type { GetRequest as _binring_v1_GetRequest, GetRequest__Output as _binring_v1_GetRequest__Output } from '../../binring/v1/GetRequest.js';
import type { KeepersReply as _binring_v1_KeepersReply, KeepersReply__Output as _binring_v1_KeepersReply__Output } from '../../binring/v1/KeepersReply.js';
import type { KeepersRequest as _binring_v1_KeepersRequest, KeepersRequest__Output as _binring_v1_KeepersRequest__Output } from '../../binring/v1/KeepersRequest.js';
import type { KeysReply as _binring_v1_KeysReply, KeysReply__Output as _binring_v1_KeysReply__Output } from '../../binring/v1/KeysReply.js';
import type { ListGetReply as _binring_v1_ListGetReply, ListGetReply__Output as _binring_v1_ListGetReply__Output } from '../../binring/v1/ListGetReply.js';
import type { ListGetRequest as _binring_v1_ListGetRequest, ListGetRequest__Output as _binring_v1_ListGetRequest__Output } from '../../binring/v1/ListGetRequest.js';
import type { PatternRequest as _binring_v1_PatternRequest, PatternRequest__Output as _binring_v1_PatternRequest__Output } from '../../binring/v1/PatternRequest.js';
import type { SetRequest as _binring_v1_SetRequest, SetRequest__Output as _binring_v1_SetRequest__Output } from '../../binring/v1/SetRequest.js';
import type { WriteReply as _binring_v1_WriteReply, WriteReply__Output as _binring_v1_WriteReply__Output } from '../../binring/v1/WriteReply.js';

/**
 * Storage is served by every backend: the data calls. Get .. Clock are the
 * public single-backend contract; Batch carries many of them in one call, and
 * Pipe streams such batches (what the SDK uses). With TLS, callers holding a
 * client, admin, keeper or backend certificate may use it (a backend
 * coordinating a write forwards it to the other replicas here).
 */
export interface StorageClient extends grpc.Client {
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
  
  Get(argument: _binring_v1_GetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_GetReply__Output>): grpc.ClientUnaryCall;
  Get(argument: _binring_v1_GetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_GetReply__Output>): grpc.ClientUnaryCall;
  Get(argument: _binring_v1_GetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_GetReply__Output>): grpc.ClientUnaryCall;
  Get(argument: _binring_v1_GetRequest, callback: grpc.requestCallback<_binring_v1_GetReply__Output>): grpc.ClientUnaryCall;
  get(argument: _binring_v1_GetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_GetReply__Output>): grpc.ClientUnaryCall;
  get(argument: _binring_v1_GetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_GetReply__Output>): grpc.ClientUnaryCall;
  get(argument: _binring_v1_GetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_GetReply__Output>): grpc.ClientUnaryCall;
  get(argument: _binring_v1_GetRequest, callback: grpc.requestCallback<_binring_v1_GetReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * The keepers on the keeper ring as this backend keeps the membership
   * (keepers send it in heartbeats): where a client finds the cluster when no
   * keeper its cluster file names is running any more.
   */
  Keepers(argument: _binring_v1_KeepersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_KeepersReply__Output>): grpc.ClientUnaryCall;
  Keepers(argument: _binring_v1_KeepersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_KeepersReply__Output>): grpc.ClientUnaryCall;
  Keepers(argument: _binring_v1_KeepersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_KeepersReply__Output>): grpc.ClientUnaryCall;
  Keepers(argument: _binring_v1_KeepersRequest, callback: grpc.requestCallback<_binring_v1_KeepersReply__Output>): grpc.ClientUnaryCall;
  /**
   * The keepers on the keeper ring as this backend keeps the membership
   * (keepers send it in heartbeats): where a client finds the cluster when no
   * keeper its cluster file names is running any more.
   */
  keepers(argument: _binring_v1_KeepersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_KeepersReply__Output>): grpc.ClientUnaryCall;
  keepers(argument: _binring_v1_KeepersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_KeepersReply__Output>): grpc.ClientUnaryCall;
  keepers(argument: _binring_v1_KeepersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_KeepersReply__Output>): grpc.ClientUnaryCall;
  keepers(argument: _binring_v1_KeepersRequest, callback: grpc.requestCallback<_binring_v1_KeepersReply__Output>): grpc.ClientUnaryCall;
  
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
   * A replicated write travels here as one `write` operation to the backend
   * that coordinates it, which forwards it to the other replicas on its own
   * Pipe streams to them.
   */
  Pipe(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_binring_v1_BatchRequest, _binring_v1_BatchReply__Output>;
  Pipe(options?: grpc.CallOptions): grpc.ClientDuplexStream<_binring_v1_BatchRequest, _binring_v1_BatchReply__Output>;
  /**
   * The SDK's data path: one long-lived stream per backend carrying batches,
   * each answered by its id as soon as it is done (possibly out of order). A
   * stream message costs far less than a unary call (shared/PERFORMANCE.md).
   * A replicated write travels here as one `write` operation to the backend
   * that coordinates it, which forwards it to the other replicas on its own
   * Pipe streams to them.
   */
  pipe(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_binring_v1_BatchRequest, _binring_v1_BatchReply__Output>;
  pipe(options?: grpc.CallOptions): grpc.ClientDuplexStream<_binring_v1_BatchRequest, _binring_v1_BatchReply__Output>;
  
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
 * Storage is served by every backend: the data calls. Get .. Clock are the
 * public single-backend contract; Batch carries many of them in one call, and
 * Pipe streams such batches (what the SDK uses). With TLS, callers holding a
 * client, admin, keeper or backend certificate may use it (a backend
 * coordinating a write forwards it to the other replicas here).
 */
export interface StorageHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Many operations in one call, answered in order; one operation's failure
   * does not fail the others.
   */
  Batch: grpc.handleUnaryCall<_binring_v1_BatchRequest__Output, _binring_v1_BatchReply>;
  
  Clock: grpc.handleUnaryCall<_binring_v1_ClockRequest__Output, _binring_v1_ClockReply>;
  
  Get: grpc.handleUnaryCall<_binring_v1_GetRequest__Output, _binring_v1_GetReply>;
  
  /**
   * The keepers on the keeper ring as this backend keeps the membership
   * (keepers send it in heartbeats): where a client finds the cluster when no
   * keeper its cluster file names is running any more.
   */
  Keepers: grpc.handleUnaryCall<_binring_v1_KeepersRequest__Output, _binring_v1_KeepersReply>;
  
  Keys: grpc.handleUnaryCall<_binring_v1_PatternRequest__Output, _binring_v1_KeysReply>;
  
  ListAppend: grpc.handleUnaryCall<_binring_v1_SetRequest__Output, _binring_v1_WriteReply>;
  
  ListGet: grpc.handleUnaryCall<_binring_v1_ListGetRequest__Output, _binring_v1_ListGetReply>;
  
  ListKeys: grpc.handleUnaryCall<_binring_v1_PatternRequest__Output, _binring_v1_KeysReply>;
  
  ListRemove: grpc.handleUnaryCall<_binring_v1_SetRequest__Output, _binring_v1_WriteReply>;
  
  /**
   * The SDK's data path: one long-lived stream per backend carrying batches,
   * each answered by its id as soon as it is done (possibly out of order). A
   * stream message costs far less than a unary call (shared/PERFORMANCE.md).
   * A replicated write travels here as one `write` operation to the backend
   * that coordinates it, which forwards it to the other replicas on its own
   * Pipe streams to them.
   */
  Pipe: grpc.handleBidiStreamingCall<_binring_v1_BatchRequest__Output, _binring_v1_BatchReply>;
  
  Set: grpc.handleUnaryCall<_binring_v1_SetRequest__Output, _binring_v1_WriteReply>;
  
}

export interface StorageDefinition extends grpc.ServiceDefinition {
  Batch: MethodDefinition<_binring_v1_BatchRequest, _binring_v1_BatchReply, _binring_v1_BatchRequest__Output, _binring_v1_BatchReply__Output>
  Clock: MethodDefinition<_binring_v1_ClockRequest, _binring_v1_ClockReply, _binring_v1_ClockRequest__Output, _binring_v1_ClockReply__Output>
  Get: MethodDefinition<_binring_v1_GetRequest, _binring_v1_GetReply, _binring_v1_GetRequest__Output, _binring_v1_GetReply__Output>
  Keepers: MethodDefinition<_binring_v1_KeepersRequest, _binring_v1_KeepersReply, _binring_v1_KeepersRequest__Output, _binring_v1_KeepersReply__Output>
  Keys: MethodDefinition<_binring_v1_PatternRequest, _binring_v1_KeysReply, _binring_v1_PatternRequest__Output, _binring_v1_KeysReply__Output>
  ListAppend: MethodDefinition<_binring_v1_SetRequest, _binring_v1_WriteReply, _binring_v1_SetRequest__Output, _binring_v1_WriteReply__Output>
  ListGet: MethodDefinition<_binring_v1_ListGetRequest, _binring_v1_ListGetReply, _binring_v1_ListGetRequest__Output, _binring_v1_ListGetReply__Output>
  ListKeys: MethodDefinition<_binring_v1_PatternRequest, _binring_v1_KeysReply, _binring_v1_PatternRequest__Output, _binring_v1_KeysReply__Output>
  ListRemove: MethodDefinition<_binring_v1_SetRequest, _binring_v1_WriteReply, _binring_v1_SetRequest__Output, _binring_v1_WriteReply__Output>
  Pipe: MethodDefinition<_binring_v1_BatchRequest, _binring_v1_BatchReply, _binring_v1_BatchRequest__Output, _binring_v1_BatchReply__Output>
  Set: MethodDefinition<_binring_v1_SetRequest, _binring_v1_WriteReply, _binring_v1_SetRequest__Output, _binring_v1_WriteReply__Output>
}
