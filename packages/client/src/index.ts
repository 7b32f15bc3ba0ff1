// @binring/client: the SDK. StorageClient talks to one backend; BinClient to a cluster of them.

/** Copies per bin, re-exported where the SDK has always offered it. */
export { REPLICAS } from "@binring/core";
export { BackendChannel, type BackendChannelOptions } from "./backend-channel.js";
export { Bin } from "./bin.js";
export { BinClient, type BinClientOptions } from "./bin-client.js";
export { ChannelTransport } from "./channel-transport.js";
export type { Placement } from "./client-session.js";
export { ClusterView, type ClusterViewOptions } from "./cluster-view.js";
export { refusesConnections } from "./connection-probe.js";
export type { CoordinatorHost } from "./coordinator-host.js";
export { classifyFailure, type FailureKind } from "./failure-kind.js";
export {
  addBackend,
  addKeeper,
  KEEPER_ADMIN_TIMEOUT_MS,
  type MembershipChange,
  removeBackend,
  removeKeeper,
} from "./keeper-admin-client.js";
export {
  type BackendHealth,
  type BackendReport,
  type CompletedRepairReport,
  fetchKeeperStatus,
  HEALTH_TO_WIRE,
  KEEPER_STATUS_TIMEOUT_MS,
  type KeeperReport,
  type KeeperStatus,
  keeperStatusFromWire,
  type RepairReport,
} from "./keeper-status-client.js";
export { keepersKeptByBackends } from "./kept-keepers.js";
export { type RepairPace, repairPace } from "./repair-pace.js";
export type { ReplicaTransport } from "./replica-transport.js";
export { parseSabotage, SABOTAGES, type Sabotage } from "./sabotage.js";
export { StorageClient, type StorageClientOptions } from "./storage-client.js";
export { systemTime, type WallTime } from "./wall-time.js";
export { coordinateWrite } from "./write-coordinator.js";
export {
  claimWithheld,
  forwardWithheld,
  type WithheldForward,
  type WithheldForwarder,
  type WithheldSet,
} from "./write-fan-out.js";
export {
  type CoordinatedWrite,
  MAX_WRITE_REPLICAS,
  parseWriteRequest,
  type WriteKind,
} from "./write-request.js";
