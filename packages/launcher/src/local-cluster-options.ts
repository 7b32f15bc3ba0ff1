// What a LocalCluster is started with, and what it tells about each backend.
import type { Logger } from "pino";
import type { ClusterNetwork } from "./cluster-network.js";
import type { ManagedProcess } from "./managed-process.js";
import type { Appendfsync, RedisProcess } from "./redis-process.js";

export interface LocalClusterOptions {
  /** The `binring` entry point (packages/cli/dist/main.js) the processes run. */
  cli: string;
  /** Backends listed in the cluster file. */
  backends: number;
  /** How many of them start now (the first ones); the rest start with restart(). @default all */
  running?: number;
  /** Keeper processes. @default 0 */
  keepers?: number;
  /** Flags for every keeper (timing). @default none */
  keeperArgs?: string[];
  /** Flags for every backend, at start and restart. @default none */
  backendArgs?: string[];
  /** Start backends ready. @default true without keepers (nobody would make them ready), false with them */
  ready?: boolean;
  /** "memory" runs backends without Redis (their data ends with them). @default "redis", or "memory" when redis-server is missing */
  store?: "redis" | "memory";
  /** Give each Redis an append-only file, so a restarted Redis brings its data back. @default true */
  appendOnly?: boolean;
  /**
   * Every Redis's appendfsync, also passed to each backend (`--appendfsync`),
   * which sets it again on every connection. "always" is power-loss safe and
   * costs write throughput. @default unset: Redis syncs always, backends leave it alone
   */
  appendfsync?: Appendfsync;
  /** Zone of backend i, written to the cluster file's "zones". @default none (zone-blind placement) */
  zoneOf?: (i: number) => string;
  /** Redis data and process logs go under it. @default a new temporary directory, removed by stop() */
  dir?: string;
  /** The cluster file written for the keepers and clients. @default DIR/binring.json */
  configPath?: string;
  /** Backend i listens on portBase + i (HTTP /metrics + 800 + i), its Redis on + 1000 + i, keepers on + 500 + i (HTTP + 600 + i). @default 0: free ports */
  portBase?: number;
  /**
   * Mutual TLS with the certificates `binring certs` wrote into this directory:
   * every process serves with its role's, and the cluster file names the
   * client's. @default plaintext
   */
  tlsDir?: string;
  /**
   * Run every backend (with its redis-server) and keeper in its own network
   * namespace of this network, at its address there, so its traffic can be
   * cut and slowed (`network.control`). The caller created it for as many
   * backends and keepers, and removes it after stop(). @default every process
   * in this process's namespace, on 127.0.0.1
   */
  network?: ClusterNetwork;
  /** How stop() ends the processes: SIGTERM lets each shut down cleanly. @default "SIGTERM" */
  stopSignal?: "SIGTERM" | "SIGKILL";
  logger?: Logger;
}

export interface BackendMember {
  index: number;
  name: string;
  address: string;
  /** Where the backend serves HTTP GET /metrics (Prometheus). */
  http: string;
  /** Absent with the memory engine. */
  redis: RedisProcess | undefined;
  /** The running `binring backend`; undefined while it is down. */
  backend: { address: string; child: ManagedProcess } | undefined;
}

export interface KeeperSlot {
  name: string;
  address: string;
  http: string;
  child: ManagedProcess | undefined;
}
