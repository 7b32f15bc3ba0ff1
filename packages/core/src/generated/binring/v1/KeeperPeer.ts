// Original file: packages/core/proto/binring/v1/keeper.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { KeeperBeat as _binring_v1_KeeperBeat, KeeperBeat__Output as _binring_v1_KeeperBeat__Output } from '../../binring/v1/KeeperBeat.js';

/**
 * KeeperPeer is what keepers call on each other. With TLS, only callers holding
 * a keeper certificate may use it.
 */
export interface KeeperPeerClient extends grpc.Client {
  /**
   * Keepers beat each other every heartbeat interval (and at once on a
   * change): the reply is the receiver's own beat, taken after it merged the
   * sender's. Missing beats is how a keeper's death is noticed.
   */
  Beat(argument: _binring_v1_KeeperBeat, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_KeeperBeat__Output>): grpc.ClientUnaryCall;
  Beat(argument: _binring_v1_KeeperBeat, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_KeeperBeat__Output>): grpc.ClientUnaryCall;
  Beat(argument: _binring_v1_KeeperBeat, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_KeeperBeat__Output>): grpc.ClientUnaryCall;
  Beat(argument: _binring_v1_KeeperBeat, callback: grpc.requestCallback<_binring_v1_KeeperBeat__Output>): grpc.ClientUnaryCall;
  /**
   * Keepers beat each other every heartbeat interval (and at once on a
   * change): the reply is the receiver's own beat, taken after it merged the
   * sender's. Missing beats is how a keeper's death is noticed.
   */
  beat(argument: _binring_v1_KeeperBeat, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_KeeperBeat__Output>): grpc.ClientUnaryCall;
  beat(argument: _binring_v1_KeeperBeat, metadata: grpc.Metadata, callback: grpc.requestCallback<_binring_v1_KeeperBeat__Output>): grpc.ClientUnaryCall;
  beat(argument: _binring_v1_KeeperBeat, options: grpc.CallOptions, callback: grpc.requestCallback<_binring_v1_KeeperBeat__Output>): grpc.ClientUnaryCall;
  beat(argument: _binring_v1_KeeperBeat, callback: grpc.requestCallback<_binring_v1_KeeperBeat__Output>): grpc.ClientUnaryCall;
  
}

/**
 * KeeperPeer is what keepers call on each other. With TLS, only callers holding
 * a keeper certificate may use it.
 */
export interface KeeperPeerHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Keepers beat each other every heartbeat interval (and at once on a
   * change): the reply is the receiver's own beat, taken after it merged the
   * sender's. Missing beats is how a keeper's death is noticed.
   */
  Beat: grpc.handleUnaryCall<_binring_v1_KeeperBeat__Output, _binring_v1_KeeperBeat>;
  
}

export interface KeeperPeerDefinition extends grpc.ServiceDefinition {
  Beat: MethodDefinition<_binring_v1_KeeperBeat, _binring_v1_KeeperBeat, _binring_v1_KeeperBeat__Output, _binring_v1_KeeperBeat__Output>
}
