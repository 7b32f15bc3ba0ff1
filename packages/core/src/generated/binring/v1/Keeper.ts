// Original file: packages/core/proto/binring/v1/keeper.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ClusterView as _binring_v1_ClusterView, ClusterView__Output as _binring_v1_ClusterView__Output } from '../../binring/v1/ClusterView.js';
import type { GetViewRequest as _binring_v1_GetViewRequest, GetViewRequest__Output as _binring_v1_GetViewRequest__Output } from '../../binring/v1/GetViewRequest.js';
import type { StatusReply as _binring_v1_StatusReply, StatusReply__Output as _binring_v1_StatusReply__Output } from '../../binring/v1/StatusReply.js';
import type { StatusRequest as _binring_v1_StatusRequest, StatusRequest__Output as _binring_v1_StatusRequest__Output } from '../../binring/v1/StatusRequest.js';

/**
 * With TLS, callers holding a client, admin or keeper certificate may use it.
 */
export interface KeeperClient extends grpc.Client {
  /**
   * The current cluster view. Clients refresh it every few seconds and
   * whenever a call fails.
   */
  GetView(argument: _binring_v1_GetViewRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_ClusterView__Output>): grpc.ClientUnaryCall;
  GetView(argument: _binring_v1_GetViewRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_ClusterView__Output>): grpc.ClientUnaryCall;
  GetView(argument: _binring_v1_GetViewRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_ClusterView__Output>): grpc.ClientUnaryCall;
  GetView(argument: _binring_v1_GetViewRequest, callback: grpc.requestCallback<_binring_v1_ClusterView__Output>): grpc.ClientUnaryCall;
  /**
   * The current cluster view. Clients refresh it every few seconds and
   * whenever a call fails.
   */
  getView(argument: _binring_v1_GetViewRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_ClusterView__Output>): grpc.ClientUnaryCall;
  getView(argument: _binring_v1_GetViewRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_ClusterView__Output>): grpc.ClientUnaryCall;
  getView(argument: _binring_v1_GetViewRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_ClusterView__Output>): grpc.ClientUnaryCall;
  getView(argument: _binring_v1_GetViewRequest, callback: grpc.requestCallback<_binring_v1_ClusterView__Output>): grpc.ClientUnaryCall;
  
  /**
   * What this keeper knows of the whole cluster: the content of its HTTP /status.
   */
  Status(argument: _binring_v1_StatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_StatusReply__Output>): grpc.ClientUnaryCall;
  Status(argument: _binring_v1_StatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_StatusReply__Output>): grpc.ClientUnaryCall;
  Status(argument: _binring_v1_StatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_StatusReply__Output>): grpc.ClientUnaryCall;
  Status(argument: _binring_v1_StatusRequest, callback: grpc.requestCallback<_binring_v1_StatusReply__Output>): grpc.ClientUnaryCall;
  /**
   * What this keeper knows of the whole cluster: the content of its HTTP /status.
   */
  status(argument: _binring_v1_StatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_StatusReply__Output>): grpc.ClientUnaryCall;
  status(argument: _binring_v1_StatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_StatusReply__Output>): grpc.ClientUnaryCall;
  status(argument: _binring_v1_StatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_StatusReply__Output>): grpc.ClientUnaryCall;
  status(argument: _binring_v1_StatusRequest, callback: grpc.requestCallback<_binring_v1_StatusReply__Output>): grpc.ClientUnaryCall;
  
}

/**
 * With TLS, callers holding a client, admin or keeper certificate may use it.
 */
export interface KeeperHandlers extends grpc.UntypedServiceImplementation {
  /**
   * The current cluster view. Clients refresh it every few seconds and
   * whenever a call fails.
   */
  GetView: grpc.handleUnaryCall<_binring_v1_GetViewRequest__Output, _binring_v1_ClusterView>;
  
  /**
   * What this keeper knows of the whole cluster: the content of its HTTP /status.
   */
  Status: grpc.handleUnaryCall<_binring_v1_StatusRequest__Output, _binring_v1_StatusReply>;
  
}

export interface KeeperDefinition extends grpc.ServiceDefinition {
  GetView: MethodDefinition<_binring_v1_GetViewRequest, _binring_v1_ClusterView, _binring_v1_GetViewRequest__Output, _binring_v1_ClusterView__Output>
  Status: MethodDefinition<_binring_v1_StatusRequest, _binring_v1_StatusReply, _binring_v1_StatusRequest__Output, _binring_v1_StatusReply__Output>
}
