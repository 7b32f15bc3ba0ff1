// Original file: packages/core/proto/binring/v1/storage.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ApplyReply as _binring_v1_ApplyReply, ApplyReply__Output as _binring_v1_ApplyReply__Output } from '../../binring/v1/ApplyReply.js';
import type { ApplyRequest as _binring_v1_ApplyRequest, ApplyRequest__Output as _binring_v1_ApplyRequest__Output } from '../../binring/v1/ApplyRequest.js';
import type { DropReply as _binring_v1_DropReply, DropReply__Output as _binring_v1_DropReply__Output } from '../../binring/v1/DropReply.js';
import type { DropRequest as _binring_v1_DropRequest, DropRequest__Output as _binring_v1_DropRequest__Output } from '../../binring/v1/DropRequest.js';
import type { EmptyReply as _binring_v1_EmptyReply, EmptyReply__Output as _binring_v1_EmptyReply__Output } from '../../binring/v1/EmptyReply.js';
import type { EmptyRequest as _binring_v1_EmptyRequest, EmptyRequest__Output as _binring_v1_EmptyRequest__Output } from '../../binring/v1/EmptyRequest.js';
import type { EntryBatch as _binring_v1_EntryBatch, EntryBatch__Output as _binring_v1_EntryBatch__Output } from '../../binring/v1/EntryBatch.js';
import type { HeartbeatAnswer as _binring_v1_HeartbeatAnswer, HeartbeatAnswer__Output as _binring_v1_HeartbeatAnswer__Output } from '../../binring/v1/HeartbeatAnswer.js';
import type { HeartbeatCall as _binring_v1_HeartbeatCall, HeartbeatCall__Output as _binring_v1_HeartbeatCall__Output } from '../../binring/v1/HeartbeatCall.js';
import type { ScanRequest as _binring_v1_ScanRequest, ScanRequest__Output as _binring_v1_ScanRequest__Output } from '../../binring/v1/ScanRequest.js';

/**
 * StorageControl is served by every backend beside Storage: replication,
 * repair and readiness, which only keepers drive. With TLS, only callers
 * holding a keeper certificate may use it (backends call no backend); anyone else gets
 * PERMISSION_DENIED before the call runs.
 */
export interface StorageControlClient extends grpc.Client {
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
  
  /**
   * Liveness probe and control channel from keepers: carries the view epoch,
   * the readiness lease and the clock floor, and reports the backend's state.
   * One long-lived stream per keeper and backend, each heartbeat answered by
   * its id as soon as it is done (a unary call per heartbeat cost both sides
   * several times as much: keepers send several a second to every backend).
   */
  Heartbeats(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_binring_v1_HeartbeatCall, _binring_v1_HeartbeatAnswer__Output>;
  Heartbeats(options?: grpc.CallOptions): grpc.ClientDuplexStream<_binring_v1_HeartbeatCall, _binring_v1_HeartbeatAnswer__Output>;
  /**
   * Liveness probe and control channel from keepers: carries the view epoch,
   * the readiness lease and the clock floor, and reports the backend's state.
   * One long-lived stream per keeper and backend, each heartbeat answered by
   * its id as soon as it is done (a unary call per heartbeat cost both sides
   * several times as much: keepers send several a second to every backend).
   */
  heartbeats(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_binring_v1_HeartbeatCall, _binring_v1_HeartbeatAnswer__Output>;
  heartbeats(options?: grpc.CallOptions): grpc.ClientDuplexStream<_binring_v1_HeartbeatCall, _binring_v1_HeartbeatAnswer__Output>;
  
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
  
}

/**
 * StorageControl is served by every backend beside Storage: replication,
 * repair and readiness, which only keepers drive. With TLS, only callers
 * holding a keeper certificate may use it (backends call no backend); anyone else gets
 * PERMISSION_DENIED before the call runs.
 */
export interface StorageControlHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Idempotent apply of already-stamped entries (replication and repair).
   */
  Apply: grpc.handleUnaryCall<_binring_v1_ApplyRequest__Output, _binring_v1_ApplyReply>;
  
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
  
  /**
   * Liveness probe and control channel from keepers: carries the view epoch,
   * the readiness lease and the clock floor, and reports the backend's state.
   * One long-lived stream per keeper and backend, each heartbeat answered by
   * its id as soon as it is done (a unary call per heartbeat cost both sides
   * several times as much: keepers send several a second to every backend).
   */
  Heartbeats: grpc.handleBidiStreamingCall<_binring_v1_HeartbeatCall__Output, _binring_v1_HeartbeatAnswer>;
  
  /**
   * Streams every entry of the bins whose ring point falls in the ranges.
   */
  Scan: grpc.handleServerStreamingCall<_binring_v1_ScanRequest__Output, _binring_v1_EntryBatch>;
  
}

export interface StorageControlDefinition extends grpc.ServiceDefinition {
  Apply: MethodDefinition<_binring_v1_ApplyRequest, _binring_v1_ApplyReply, _binring_v1_ApplyRequest__Output, _binring_v1_ApplyReply__Output>
  Drop: MethodDefinition<_binring_v1_DropRequest, _binring_v1_DropReply, _binring_v1_DropRequest__Output, _binring_v1_DropReply__Output>
  Empty: MethodDefinition<_binring_v1_EmptyRequest, _binring_v1_EmptyReply, _binring_v1_EmptyRequest__Output, _binring_v1_EmptyReply__Output>
  Heartbeats: MethodDefinition<_binring_v1_HeartbeatCall, _binring_v1_HeartbeatAnswer, _binring_v1_HeartbeatCall__Output, _binring_v1_HeartbeatAnswer__Output>
  Scan: MethodDefinition<_binring_v1_ScanRequest, _binring_v1_EntryBatch, _binring_v1_ScanRequest__Output, _binring_v1_EntryBatch__Output>
}
