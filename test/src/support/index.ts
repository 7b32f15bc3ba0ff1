// Test support: real redis-servers, real binring processes, waiting on conditions.

export { freePort } from "@binring/launcher";
export {
  type BackendProcess,
  type BackendProcessOptions,
  CLI_MAIN,
  REPO_ROOT,
  runCli,
  startBackendProcess,
} from "./binring-process.js";
export { chaosInBackground, chaosVerdicts, expectChaosPassed } from "./chaos-output.js";
export { ChildProcess, type SpawnOptions } from "./child.js";
export { commandCalls } from "./command-calls.js";
export { type EngineOnRedis, engineOnRedis } from "./engine-on-redis.js";
export { type KeeperStatus, keeperStatus, waitForKeepersSettled, waitForSettled } from "./keeper-status.js";
export {
  type ClusterMember,
  FAST_KEEPER_ARGS,
  LocalCluster,
  type LocalClusterOptions,
  MULTI_KEEPER_ARGS,
} from "./local-cluster.js";
export { RedisServer, type RedisServerOptions } from "./redis-server.js";
export { servedSerial } from "./served-certificate.js";
export { type WaitOptions, waitFor } from "./wait-for.js";
export { Workload, type WorkloadOptions } from "./workload.js";
