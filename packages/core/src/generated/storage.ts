import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ApplyReply as _binring_v1_ApplyReply, ApplyReply__Output as _binring_v1_ApplyReply__Output } from './binring/v1/ApplyReply.js';
import type { ApplyRequest as _binring_v1_ApplyRequest, ApplyRequest__Output as _binring_v1_ApplyRequest__Output } from './binring/v1/ApplyRequest.js';
import type { BatchReply as _binring_v1_BatchReply, BatchReply__Output as _binring_v1_BatchReply__Output } from './binring/v1/BatchReply.js';
import type { BatchRequest as _binring_v1_BatchRequest, BatchRequest__Output as _binring_v1_BatchRequest__Output } from './binring/v1/BatchRequest.js';
import type { ClaimReply as _binring_v1_ClaimReply, ClaimReply__Output as _binring_v1_ClaimReply__Output } from './binring/v1/ClaimReply.js';
import type { ClaimRequest as _binring_v1_ClaimRequest, ClaimRequest__Output as _binring_v1_ClaimRequest__Output } from './binring/v1/ClaimRequest.js';
import type { ClockReply as _binring_v1_ClockReply, ClockReply__Output as _binring_v1_ClockReply__Output } from './binring/v1/ClockReply.js';
import type { ClockRequest as _binring_v1_ClockRequest, ClockRequest__Output as _binring_v1_ClockRequest__Output } from './binring/v1/ClockRequest.js';
import type { DropReply as _binring_v1_DropReply, DropReply__Output as _binring_v1_DropReply__Output } from './binring/v1/DropReply.js';
import type { DropRequest as _binring_v1_DropRequest, DropRequest__Output as _binring_v1_DropRequest__Output } from './binring/v1/DropRequest.js';
import type { EmptyReply as _binring_v1_EmptyReply, EmptyReply__Output as _binring_v1_EmptyReply__Output } from './binring/v1/EmptyReply.js';
import type { EmptyRequest as _binring_v1_EmptyRequest, EmptyRequest__Output as _binring_v1_EmptyRequest__Output } from './binring/v1/EmptyRequest.js';
import type { Entry as _binring_v1_Entry, Entry__Output as _binring_v1_Entry__Output } from './binring/v1/Entry.js';
import type { EntryBatch as _binring_v1_EntryBatch, EntryBatch__Output as _binring_v1_EntryBatch__Output } from './binring/v1/EntryBatch.js';
import type { GetReply as _binring_v1_GetReply, GetReply__Output as _binring_v1_GetReply__Output } from './binring/v1/GetReply.js';
import type { GetRequest as _binring_v1_GetRequest, GetRequest__Output as _binring_v1_GetRequest__Output } from './binring/v1/GetRequest.js';
import type { HeartbeatAnswer as _binring_v1_HeartbeatAnswer, HeartbeatAnswer__Output as _binring_v1_HeartbeatAnswer__Output } from './binring/v1/HeartbeatAnswer.js';
import type { HeartbeatCall as _binring_v1_HeartbeatCall, HeartbeatCall__Output as _binring_v1_HeartbeatCall__Output } from './binring/v1/HeartbeatCall.js';
import type { HeartbeatReply as _binring_v1_HeartbeatReply, HeartbeatReply__Output as _binring_v1_HeartbeatReply__Output } from './binring/v1/HeartbeatReply.js';
import type { HeartbeatRequest as _binring_v1_HeartbeatRequest, HeartbeatRequest__Output as _binring_v1_HeartbeatRequest__Output } from './binring/v1/HeartbeatRequest.js';
import type { KeeperSighting as _binring_v1_KeeperSighting, KeeperSighting__Output as _binring_v1_KeeperSighting__Output } from './binring/v1/KeeperSighting.js';
import type { KeepersReply as _binring_v1_KeepersReply, KeepersReply__Output as _binring_v1_KeepersReply__Output } from './binring/v1/KeepersReply.js';
import type { KeepersRequest as _binring_v1_KeepersRequest, KeepersRequest__Output as _binring_v1_KeepersRequest__Output } from './binring/v1/KeepersRequest.js';
import type { KeysReply as _binring_v1_KeysReply, KeysReply__Output as _binring_v1_KeysReply__Output } from './binring/v1/KeysReply.js';
import type { ListGetReply as _binring_v1_ListGetReply, ListGetReply__Output as _binring_v1_ListGetReply__Output } from './binring/v1/ListGetReply.js';
import type { ListGetRequest as _binring_v1_ListGetRequest, ListGetRequest__Output as _binring_v1_ListGetRequest__Output } from './binring/v1/ListGetRequest.js';
import type { MemberRecord as _binring_v1_MemberRecord, MemberRecord__Output as _binring_v1_MemberRecord__Output } from './binring/v1/MemberRecord.js';
import type { Operation as _binring_v1_Operation, Operation__Output as _binring_v1_Operation__Output } from './binring/v1/Operation.js';
import type { OperationError as _binring_v1_OperationError, OperationError__Output as _binring_v1_OperationError__Output } from './binring/v1/OperationError.js';
import type { OperationResult as _binring_v1_OperationResult, OperationResult__Output as _binring_v1_OperationResult__Output } from './binring/v1/OperationResult.js';
import type { PatternRequest as _binring_v1_PatternRequest, PatternRequest__Output as _binring_v1_PatternRequest__Output } from './binring/v1/PatternRequest.js';
import type { ReleaseReply as _binring_v1_ReleaseReply, ReleaseReply__Output as _binring_v1_ReleaseReply__Output } from './binring/v1/ReleaseReply.js';
import type { ReleaseRequest as _binring_v1_ReleaseRequest, ReleaseRequest__Output as _binring_v1_ReleaseRequest__Output } from './binring/v1/ReleaseRequest.js';
import type { RingRange as _binring_v1_RingRange, RingRange__Output as _binring_v1_RingRange__Output } from './binring/v1/RingRange.js';
import type { ScanRequest as _binring_v1_ScanRequest, ScanRequest__Output as _binring_v1_ScanRequest__Output } from './binring/v1/ScanRequest.js';
import type { SetRequest as _binring_v1_SetRequest, SetRequest__Output as _binring_v1_SetRequest__Output } from './binring/v1/SetRequest.js';
import type { Stamp as _binring_v1_Stamp, Stamp__Output as _binring_v1_Stamp__Output } from './binring/v1/Stamp.js';
import type { StorageClient as _binring_v1_StorageClient, StorageDefinition as _binring_v1_StorageDefinition } from './binring/v1/Storage.js';
import type { StorageControlClient as _binring_v1_StorageControlClient, StorageControlDefinition as _binring_v1_StorageControlDefinition } from './binring/v1/StorageControl.js';
import type { Target as _binring_v1_Target, Target__Output as _binring_v1_Target__Output } from './binring/v1/Target.js';
import type { WriteReply as _binring_v1_WriteReply, WriteReply__Output as _binring_v1_WriteReply__Output } from './binring/v1/WriteReply.js';
import type { WriteRequest as _binring_v1_WriteRequest, WriteRequest__Output as _binring_v1_WriteRequest__Output } from './binring/v1/WriteRequest.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  binring: {
    v1: {
      ApplyReply: MessageTypeDefinition<_binring_v1_ApplyReply, _binring_v1_ApplyReply__Output>
      ApplyRequest: MessageTypeDefinition<_binring_v1_ApplyRequest, _binring_v1_ApplyRequest__Output>
      BatchReply: MessageTypeDefinition<_binring_v1_BatchReply, _binring_v1_BatchReply__Output>
      BatchRequest: MessageTypeDefinition<_binring_v1_BatchRequest, _binring_v1_BatchRequest__Output>
      ClaimReply: MessageTypeDefinition<_binring_v1_ClaimReply, _binring_v1_ClaimReply__Output>
      ClaimRequest: MessageTypeDefinition<_binring_v1_ClaimRequest, _binring_v1_ClaimRequest__Output>
      ClockReply: MessageTypeDefinition<_binring_v1_ClockReply, _binring_v1_ClockReply__Output>
      ClockRequest: MessageTypeDefinition<_binring_v1_ClockRequest, _binring_v1_ClockRequest__Output>
      DropReply: MessageTypeDefinition<_binring_v1_DropReply, _binring_v1_DropReply__Output>
      DropRequest: MessageTypeDefinition<_binring_v1_DropRequest, _binring_v1_DropRequest__Output>
      EmptyReply: MessageTypeDefinition<_binring_v1_EmptyReply, _binring_v1_EmptyReply__Output>
      EmptyRequest: MessageTypeDefinition<_binring_v1_EmptyRequest, _binring_v1_EmptyRequest__Output>
      Entry: MessageTypeDefinition<_binring_v1_Entry, _binring_v1_Entry__Output>
      EntryBatch: MessageTypeDefinition<_binring_v1_EntryBatch, _binring_v1_EntryBatch__Output>
      EntryKind: EnumTypeDefinition
      ErrorReason: EnumTypeDefinition
      GetReply: MessageTypeDefinition<_binring_v1_GetReply, _binring_v1_GetReply__Output>
      GetRequest: MessageTypeDefinition<_binring_v1_GetRequest, _binring_v1_GetRequest__Output>
      HeartbeatAnswer: MessageTypeDefinition<_binring_v1_HeartbeatAnswer, _binring_v1_HeartbeatAnswer__Output>
      HeartbeatCall: MessageTypeDefinition<_binring_v1_HeartbeatCall, _binring_v1_HeartbeatCall__Output>
      HeartbeatReply: MessageTypeDefinition<_binring_v1_HeartbeatReply, _binring_v1_HeartbeatReply__Output>
      HeartbeatRequest: MessageTypeDefinition<_binring_v1_HeartbeatRequest, _binring_v1_HeartbeatRequest__Output>
      KeeperSighting: MessageTypeDefinition<_binring_v1_KeeperSighting, _binring_v1_KeeperSighting__Output>
      KeepersReply: MessageTypeDefinition<_binring_v1_KeepersReply, _binring_v1_KeepersReply__Output>
      KeepersRequest: MessageTypeDefinition<_binring_v1_KeepersRequest, _binring_v1_KeepersRequest__Output>
      KeysReply: MessageTypeDefinition<_binring_v1_KeysReply, _binring_v1_KeysReply__Output>
      ListGetReply: MessageTypeDefinition<_binring_v1_ListGetReply, _binring_v1_ListGetReply__Output>
      ListGetRequest: MessageTypeDefinition<_binring_v1_ListGetRequest, _binring_v1_ListGetRequest__Output>
      MemberKind: EnumTypeDefinition
      MemberRecord: MessageTypeDefinition<_binring_v1_MemberRecord, _binring_v1_MemberRecord__Output>
      MemberStatus: EnumTypeDefinition
      Operation: MessageTypeDefinition<_binring_v1_Operation, _binring_v1_Operation__Output>
      OperationError: MessageTypeDefinition<_binring_v1_OperationError, _binring_v1_OperationError__Output>
      OperationResult: MessageTypeDefinition<_binring_v1_OperationResult, _binring_v1_OperationResult__Output>
      PatternRequest: MessageTypeDefinition<_binring_v1_PatternRequest, _binring_v1_PatternRequest__Output>
      Readiness: EnumTypeDefinition
      ReleaseReply: MessageTypeDefinition<_binring_v1_ReleaseReply, _binring_v1_ReleaseReply__Output>
      ReleaseRequest: MessageTypeDefinition<_binring_v1_ReleaseRequest, _binring_v1_ReleaseRequest__Output>
      RingRange: MessageTypeDefinition<_binring_v1_RingRange, _binring_v1_RingRange__Output>
      ScanRequest: MessageTypeDefinition<_binring_v1_ScanRequest, _binring_v1_ScanRequest__Output>
      SetRequest: MessageTypeDefinition<_binring_v1_SetRequest, _binring_v1_SetRequest__Output>
      Stamp: MessageTypeDefinition<_binring_v1_Stamp, _binring_v1_Stamp__Output>
      /**
       * Storage is served by every backend: the data calls. Get .. Clock are the
       * public single-backend contract; Batch carries many of them in one call, and
       * Pipe streams such batches (what the SDK uses). With TLS, callers holding a
       * client, admin, keeper or backend certificate may use it (a backend
       * coordinating a write forwards it to the other replicas here).
       */
      Storage: SubtypeConstructor<typeof grpc.Client, _binring_v1_StorageClient> & { service: _binring_v1_StorageDefinition }
      /**
       * StorageControl is served by every backend beside Storage: replication,
       * repair and readiness, which only keepers drive. With TLS, only callers
       * holding a keeper certificate may use it (backends call no backend); anyone else gets
       * PERMISSION_DENIED before the call runs.
       */
      StorageControl: SubtypeConstructor<typeof grpc.Client, _binring_v1_StorageControlClient> & { service: _binring_v1_StorageControlDefinition }
      Target: MessageTypeDefinition<_binring_v1_Target, _binring_v1_Target__Output>
      WriteReply: MessageTypeDefinition<_binring_v1_WriteReply, _binring_v1_WriteReply__Output>
      WriteRequest: MessageTypeDefinition<_binring_v1_WriteRequest, _binring_v1_WriteRequest__Output>
    }
  }
}

