// @binring/backend: a gRPC backend over a Redis (or in-memory) store.
export { applyScriptArguments, PACKED_FROM_ENTRIES } from "./apply-script.js";
export type {
  BackendState,
  CallTarget,
  HeartbeatCommand,
  WriteRequest,
  WriteResult,
} from "./backend-calls.js";
export { BackendNode, type BackendNodeOptions } from "./backend-node.js";
export { DROP_KEYS_PER_CALL, PACED_DROP_BINS } from "./drop-pace.js";
export { heartbeatCommandFromWire, heartbeatReplyToWire } from "./heartbeat-wire.js";
export { type KeeperSighting, MAX_KEEPER_NAME_BYTES, MAX_SIGHTED_KEEPERS } from "./keeper-sightings.js";
export { LocalStorage } from "./local-storage.js";
export { MemoryEngine } from "./memory-engine.js";
export { BINS_PER_PAGE } from "./redis-bins.js";
export { REDIS_COMMAND_TIMEOUT_MS } from "./redis-connection.js";
export { RedisEngine, type RedisEngineOptions } from "./redis-engine.js";
export {
  type BackendOptions,
  DEFAULT_TOMBSTONE_TTL_MS,
  openEngine,
  type RunningBackend,
  type StoreOptions,
  startBackend,
} from "./start-backend.js";
export {
  LIST_ELEMENT_OVERHEAD_BYTES,
  MAX_LIST_BYTES,
  type StoredString,
  type StoreEngine,
  type StoreStats,
  type TombstoneSweep,
} from "./store-engine.js";
export { TombstoneSweeper } from "./tombstone-sweeper.js";
