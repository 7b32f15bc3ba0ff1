// @binring/keeper: liveness, clock convergence, repair, the cluster view, and the keeper ring.
export { BackendHealth, type HealthState, type ProbeReply } from "./backend-health.js";
export type { ClusterViewSnapshot, ViewEntry } from "./cluster-view-snapshot.js";
export { type CopyContext, type CopyProgress, copyTask } from "./copier.js";
export { type Intent, IntentLog, KEEPER_LOG_BIN, type LogContents } from "./intent-log.js";
export { Keeper } from "./keeper.js";
export {
  DEFAULT_KEEPER_TIMING,
  type KeeperOptions,
  type KeeperTiming,
  parseKeeperTiming,
} from "./keeper-options.js";
export { KeeperPeers, type PeerBeat } from "./keeper-peers.js";
export { KEEPER_VIRTUAL_NODES, KeeperRing, MAX_KEEPERS } from "./keeper-ring.js";
export { PeerChannel } from "./peer-channel.js";
export { type CopyTask, type DropTask, planCopies, planDrops } from "./repair-plan.js";
export { type PublishedState, SharedView } from "./shared-view.js";
export { type RunningKeeper, type StartKeeperOptions, startKeeper } from "./start-keeper.js";
