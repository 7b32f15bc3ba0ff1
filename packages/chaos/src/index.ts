// @binring/chaos: the chaos workload, its fault schedule and history, and the runner that ties them together.
export { type ChaosOptions, type ChaosProgress, type ChaosResult, DEFAULT_KEYS } from "./chaos-options.js";
export { ChaosRun } from "./chaos-run.js";
export type { BackendKill, ClusterControl } from "./cluster-control.js";
export {
  MAX_IMPAIRED_BACKENDS,
  nextFault,
  type PlannedFault,
  type ScheduleState,
} from "./fault-schedule.js";
export { type FuzzCounts, Fuzzer, type FuzzerOptions } from "./fuzzer.js";
export type { FaultRecord, FinalRecord, HistoryRecord, MetaRecord, OpRecord } from "./history.js";
export { type ClusterHealth, isReady, isSettled, readClusterHealth } from "./keeper-status.js";
export type { NetworkControl, NetworkNode, SlowLink, Undo } from "./network-control.js";
export { NetworkFaults } from "./network-faults.js";
export { FAULT_KINDS, type FaultKind, type PlannedNetworkFault } from "./network-schedule.js";
export { Random } from "./random.js";
export type { WorkloadCounts, WorkloadKeys } from "./workload.js";
