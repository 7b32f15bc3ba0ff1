// What the chaos runner needs from a cluster it owns: kill, restart and pause
// its processes by index, and cut or slow the network between them when each
// runs in a namespace of its own. `binring chaos --local` implements it over
// the processes it started (packages/launcher/src/local-cluster.ts).
import type { NetworkControl } from "./network-control.js";

/** How a backend is killed, which decides what it finds when it restarts. */
export type BackendKill =
  /** Only the backend process: its redis-server keeps running, so it returns with stale data. */
  | "backend"
  /** Backend and redis-server: Redis restarts from its append-only file (stale, maybe missing its last second). */
  | "with-redis"
  /** Backend and redis-server, and Redis's files are deleted: it returns empty. */
  | "wipe"
  /**
   * Only the redis-server, and its files are deleted: the backend process runs
   * on and finds its Redis back empty, so it must stop serving reads until it
   * is refilled. A backend without Redis (memory engine) is killed instead.
   */
  | "redis";

export interface ClusterControl {
  /** Backend addresses by index: the cluster file's, then those started since (joinBackend). */
  readonly backends: readonly string[];
  /** Keeper addresses, in cluster-file order. */
  readonly keepers: readonly string[];
  /** Whether every backend keeps its data in a redis-server; false on the in-memory store, where every kill empties it. */
  readonly usesRedis: boolean;
  killBackend(index: number, how: BackendKill): Promise<void>;
  /** Starts a killed backend again on its address (and its redis-server, if that was killed; only that, if the backend runs). */
  restartBackend(index: number): Promise<void>;
  killKeeper(index: number): Promise<void>;
  restartKeeper(index: number): Promise<void>;
  /** Set when every process runs in a network namespace of its own; network faults need it. */
  readonly network?: NetworkControl;
  /** How many backends can ever be started, the first ones included (joinBackend past it fails). @default no bound */
  readonly maxBackends?: number;
  /**
   * Starts one more backend and asks the keepers to add it to the ring
   * (binring admin add-backend); resolves to its index once they recorded it.
   * Membership faults need it.
   */
  joinBackend?(): Promise<number>;
  /** Asks the keepers to decommission backend `index`; resolves once they recorded it leaving. */
  decommissionBackend?(index: number): Promise<void>;
  /** Stops a backend that has left the ring (and its redis-server) for good. */
  retireBackend?(index: number): Promise<void>;
  /** SIGSTOP / SIGCONT. */
  pause(kind: "backend" | "keeper", index: number): void;
  resume(kind: "backend" | "keeper", index: number): void;
  /**
   * Processes that exited without being killed through this control, one
   * line each naming the process and how it ended. A crash is a bug, never a
   * scheduled fault, so a chaos run fails as soon as this is not empty.
   */
  unexpectedExits(): readonly string[];
}
