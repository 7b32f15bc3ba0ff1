// @binring/launcher: a whole binring cluster as local processes, for `binring dev`, chaos, tests and benchmarks.
export { ClusterNetwork, type ClusterNetworkOptions } from "./cluster-network.js";
export { freePort } from "./free-port.js";
export { LocalCluster } from "./local-cluster.js";
export type { BackendMember, LocalClusterOptions } from "./local-cluster-options.js";
export { type Exit, ManagedProcess, type SpawnOptions } from "./managed-process.js";
export { type Appendfsync, hasRedisServer, type RedisOptions, RedisProcess } from "./redis-process.js";
