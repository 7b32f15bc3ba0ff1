// @binring/keeper: liveness, clock convergence, repair, and the cluster view.
export { BackendHealth, type HealthState, type ProbeReply } from "./backend-health.js";
export { type ClusterViewSnapshot, Keeper, type KeeperOptions, type ViewEntry } from "./keeper.js";
export { DEFAULT_KEEPER_TIMING, type KeeperTiming, parseKeeperTiming } from "./keeper-options.js";
export { type CopyTask, type DropTask, planCopies, planDrops } from "./repair-plan.js";
export { type RunningKeeper, type StartKeeperOptions, startKeeper } from "./start-keeper.js";
