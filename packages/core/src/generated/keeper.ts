import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { BackendView as _binring_v1_BackendView, BackendView__Output as _binring_v1_BackendView__Output } from './binring/v1/BackendView.js';
import type { ClusterView as _binring_v1_ClusterView, ClusterView__Output as _binring_v1_ClusterView__Output } from './binring/v1/ClusterView.js';
import type { GetViewRequest as _binring_v1_GetViewRequest, GetViewRequest__Output as _binring_v1_GetViewRequest__Output } from './binring/v1/GetViewRequest.js';
import type { KeeperClient as _binring_v1_KeeperClient, KeeperDefinition as _binring_v1_KeeperDefinition } from './binring/v1/Keeper.js';
import type { KeeperBeat as _binring_v1_KeeperBeat, KeeperBeat__Output as _binring_v1_KeeperBeat__Output } from './binring/v1/KeeperBeat.js';
import type { KeeperPeerClient as _binring_v1_KeeperPeerClient, KeeperPeerDefinition as _binring_v1_KeeperPeerDefinition } from './binring/v1/KeeperPeer.js';
import type { LeaseGrant as _binring_v1_LeaseGrant, LeaseGrant__Output as _binring_v1_LeaseGrant__Output } from './binring/v1/LeaseGrant.js';
import type { PublishedBackend as _binring_v1_PublishedBackend, PublishedBackend__Output as _binring_v1_PublishedBackend__Output } from './binring/v1/PublishedBackend.js';
import type { StatusBackend as _binring_v1_StatusBackend, StatusBackend__Output as _binring_v1_StatusBackend__Output } from './binring/v1/StatusBackend.js';
import type { StatusBackendCounts as _binring_v1_StatusBackendCounts, StatusBackendCounts__Output as _binring_v1_StatusBackendCounts__Output } from './binring/v1/StatusBackendCounts.js';
import type { StatusCompletedRepair as _binring_v1_StatusCompletedRepair, StatusCompletedRepair__Output as _binring_v1_StatusCompletedRepair__Output } from './binring/v1/StatusCompletedRepair.js';
import type { StatusKeeper as _binring_v1_StatusKeeper, StatusKeeper__Output as _binring_v1_StatusKeeper__Output } from './binring/v1/StatusKeeper.js';
import type { StatusRepair as _binring_v1_StatusRepair, StatusRepair__Output as _binring_v1_StatusRepair__Output } from './binring/v1/StatusRepair.js';
import type { StatusRepairProgress as _binring_v1_StatusRepairProgress, StatusRepairProgress__Output as _binring_v1_StatusRepairProgress__Output } from './binring/v1/StatusRepairProgress.js';
import type { StatusReply as _binring_v1_StatusReply, StatusReply__Output as _binring_v1_StatusReply__Output } from './binring/v1/StatusReply.js';
import type { StatusRequest as _binring_v1_StatusRequest, StatusRequest__Output as _binring_v1_StatusRequest__Output } from './binring/v1/StatusRequest.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  binring: {
    v1: {
      BackendState: EnumTypeDefinition
      BackendView: MessageTypeDefinition<_binring_v1_BackendView, _binring_v1_BackendView__Output>
      ClusterView: MessageTypeDefinition<_binring_v1_ClusterView, _binring_v1_ClusterView__Output>
      GetViewRequest: MessageTypeDefinition<_binring_v1_GetViewRequest, _binring_v1_GetViewRequest__Output>
      /**
       * With TLS, callers holding a client, admin or keeper certificate may use it.
       */
      Keeper: SubtypeConstructor<typeof grpc.Client, _binring_v1_KeeperClient> & { service: _binring_v1_KeeperDefinition }
      KeeperBeat: MessageTypeDefinition<_binring_v1_KeeperBeat, _binring_v1_KeeperBeat__Output>
      /**
       * KeeperPeer is what keepers call on each other. With TLS, only callers holding
       * a keeper certificate may use it.
       */
      KeeperPeer: SubtypeConstructor<typeof grpc.Client, _binring_v1_KeeperPeerClient> & { service: _binring_v1_KeeperPeerDefinition }
      LeaseGrant: MessageTypeDefinition<_binring_v1_LeaseGrant, _binring_v1_LeaseGrant__Output>
      PublishedBackend: MessageTypeDefinition<_binring_v1_PublishedBackend, _binring_v1_PublishedBackend__Output>
      StatusBackend: MessageTypeDefinition<_binring_v1_StatusBackend, _binring_v1_StatusBackend__Output>
      StatusBackendCounts: MessageTypeDefinition<_binring_v1_StatusBackendCounts, _binring_v1_StatusBackendCounts__Output>
      StatusCompletedRepair: MessageTypeDefinition<_binring_v1_StatusCompletedRepair, _binring_v1_StatusCompletedRepair__Output>
      StatusKeeper: MessageTypeDefinition<_binring_v1_StatusKeeper, _binring_v1_StatusKeeper__Output>
      StatusRepair: MessageTypeDefinition<_binring_v1_StatusRepair, _binring_v1_StatusRepair__Output>
      StatusRepairProgress: MessageTypeDefinition<_binring_v1_StatusRepairProgress, _binring_v1_StatusRepairProgress__Output>
      StatusReply: MessageTypeDefinition<_binring_v1_StatusReply, _binring_v1_StatusReply__Output>
      StatusRequest: MessageTypeDefinition<_binring_v1_StatusRequest, _binring_v1_StatusRequest__Output>
    }
  }
}

