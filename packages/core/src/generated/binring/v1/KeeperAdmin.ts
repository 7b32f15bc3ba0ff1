// Original file: packages/core/proto/binring/v1/keeper.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AddBackendRequest as _binring_v1_AddBackendRequest, AddBackendRequest__Output as _binring_v1_AddBackendRequest__Output } from '../../binring/v1/AddBackendRequest.js';
import type { AddKeeperRequest as _binring_v1_AddKeeperRequest, AddKeeperRequest__Output as _binring_v1_AddKeeperRequest__Output } from '../../binring/v1/AddKeeperRequest.js';
import type { MembershipReply as _binring_v1_MembershipReply, MembershipReply__Output as _binring_v1_MembershipReply__Output } from '../../binring/v1/MembershipReply.js';
import type { RemoveBackendRequest as _binring_v1_RemoveBackendRequest, RemoveBackendRequest__Output as _binring_v1_RemoveBackendRequest__Output } from '../../binring/v1/RemoveBackendRequest.js';
import type { RemoveKeeperRequest as _binring_v1_RemoveKeeperRequest, RemoveKeeperRequest__Output as _binring_v1_RemoveKeeperRequest__Output } from '../../binring/v1/RemoveKeeperRequest.js';

/**
 * Membership changes. With TLS, only callers holding an admin or keeper
 * certificate may use it. Any keeper takes a change; the others learn it
 * from beats, and the backends keep it.
 */
export interface KeeperAdminClient extends grpc.Client {
  /**
   * Records a running backend as a member and fills it with its share of
   * bins. Adding a member twice changes nothing.
   */
  AddBackend(argument: _binring_v1_AddBackendRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  AddBackend(argument: _binring_v1_AddBackendRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  AddBackend(argument: _binring_v1_AddBackendRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  AddBackend(argument: _binring_v1_AddBackendRequest, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  /**
   * Records a running backend as a member and fills it with its share of
   * bins. Adding a member twice changes nothing.
   */
  addBackend(argument: _binring_v1_AddBackendRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  addBackend(argument: _binring_v1_AddBackendRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  addBackend(argument: _binring_v1_AddBackendRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  addBackend(argument: _binring_v1_AddBackendRequest, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Records a running keeper as a member of the keeper ring: slices move to
   * it. Adding a member twice changes nothing.
   */
  AddKeeper(argument: _binring_v1_AddKeeperRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  AddKeeper(argument: _binring_v1_AddKeeperRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  AddKeeper(argument: _binring_v1_AddKeeperRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  AddKeeper(argument: _binring_v1_AddKeeperRequest, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  /**
   * Records a running keeper as a member of the keeper ring: slices move to
   * it. Adding a member twice changes nothing.
   */
  addKeeper(argument: _binring_v1_AddKeeperRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  addKeeper(argument: _binring_v1_AddKeeperRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  addKeeper(argument: _binring_v1_AddKeeperRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  addKeeper(argument: _binring_v1_AddKeeperRequest, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Decommissions a member: its bins are copied to their new replicas, then
   * it leaves the ring.
   */
  RemoveBackend(argument: _binring_v1_RemoveBackendRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  RemoveBackend(argument: _binring_v1_RemoveBackendRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  RemoveBackend(argument: _binring_v1_RemoveBackendRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  RemoveBackend(argument: _binring_v1_RemoveBackendRequest, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  /**
   * Decommissions a member: its bins are copied to their new replicas, then
   * it leaves the ring.
   */
  removeBackend(argument: _binring_v1_RemoveBackendRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  removeBackend(argument: _binring_v1_RemoveBackendRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  removeBackend(argument: _binring_v1_RemoveBackendRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  removeBackend(argument: _binring_v1_RemoveBackendRequest, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Takes a keeper off the keeper ring: it hands its slice to the others,
   * finishing nothing it no longer owns, then stands by (it may be stopped).
   */
  RemoveKeeper(argument: _binring_v1_RemoveKeeperRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  RemoveKeeper(argument: _binring_v1_RemoveKeeperRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  RemoveKeeper(argument: _binring_v1_RemoveKeeperRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  RemoveKeeper(argument: _binring_v1_RemoveKeeperRequest, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  /**
   * Takes a keeper off the keeper ring: it hands its slice to the others,
   * finishing nothing it no longer owns, then stands by (it may be stopped).
   */
  removeKeeper(argument: _binring_v1_RemoveKeeperRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  removeKeeper(argument: _binring_v1_RemoveKeeperRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  removeKeeper(argument: _binring_v1_RemoveKeeperRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  removeKeeper(argument: _binring_v1_RemoveKeeperRequest, callback: grpc.requestCallback<_binring_v1_MembershipReply__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Membership changes. With TLS, only callers holding an admin or keeper
 * certificate may use it. Any keeper takes a change; the others learn it
 * from beats, and the backends keep it.
 */
export interface KeeperAdminHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Records a running backend as a member and fills it with its share of
   * bins. Adding a member twice changes nothing.
   */
  AddBackend: grpc.handleUnaryCall<_binring_v1_AddBackendRequest__Output, _binring_v1_MembershipReply>;
  
  /**
   * Records a running keeper as a member of the keeper ring: slices move to
   * it. Adding a member twice changes nothing.
   */
  AddKeeper: grpc.handleUnaryCall<_binring_v1_AddKeeperRequest__Output, _binring_v1_MembershipReply>;
  
  /**
   * Decommissions a member: its bins are copied to their new replicas, then
   * it leaves the ring.
   */
  RemoveBackend: grpc.handleUnaryCall<_binring_v1_RemoveBackendRequest__Output, _binring_v1_MembershipReply>;
  
  /**
   * Takes a keeper off the keeper ring: it hands its slice to the others,
   * finishing nothing it no longer owns, then stands by (it may be stopped).
   */
  RemoveKeeper: grpc.handleUnaryCall<_binring_v1_RemoveKeeperRequest__Output, _binring_v1_MembershipReply>;
  
}

export interface KeeperAdminDefinition extends grpc.ServiceDefinition {
  AddBackend: MethodDefinition<_binring_v1_AddBackendRequest, _binring_v1_MembershipReply, _binring_v1_AddBackendRequest__Output, _binring_v1_MembershipReply__Output>
  AddKeeper: MethodDefinition<_binring_v1_AddKeeperRequest, _binring_v1_MembershipReply, _binring_v1_AddKeeperRequest__Output, _binring_v1_MembershipReply__Output>
  RemoveBackend: MethodDefinition<_binring_v1_RemoveBackendRequest, _binring_v1_MembershipReply, _binring_v1_RemoveBackendRequest__Output, _binring_v1_MembershipReply__Output>
  RemoveKeeper: MethodDefinition<_binring_v1_RemoveKeeperRequest, _binring_v1_MembershipReply, _binring_v1_RemoveKeeperRequest__Output, _binring_v1_MembershipReply__Output>
}
