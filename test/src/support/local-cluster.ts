// Test clusters: the launcher's LocalCluster (packages/launcher) on Redis, with
// test timing for the keepers. Backends and keepers can be killed, paused and
// restarted by address or index.
import {
  type BackendMember,
  LocalCluster as Launcher,
  type LocalClusterOptions as LauncherOptions,
  type RedisProcess,
} from "@binring/launcher";
import { CLI_MAIN } from "./binring-process.js";
import { anyTestFailed, printLogTails } from "./failed-tests.js";

/** Keeper timing for tests: dead within about a second, leases shorter than that. */
export const FAST_KEEPER_ARGS = [
  "--heartbeat-ms",
  "300",
  "--misses",
  "3",
  "--lease-ms",
  "700",
  "--probe-timeout-ms",
  "150",
  "--clock-sync-ms",
  "100",
];

/**
 * Keeper timing for tests with several keepers: each beats the others and
 * takes a silent one's slice over after three intervals, so on a loaded
 * machine the interval must outlast ordinary event-loop stalls or keepers
 * would take each other's slices over back and forth.
 */
export const MULTI_KEEPER_ARGS = [
  "--heartbeat-ms",
  "400",
  "--misses",
  "3",
  "--lease-ms",
  "1000",
  "--probe-timeout-ms",
  "200",
  "--clock-sync-ms",
  "200",
];

/** The launcher's options; `cli` defaults to this checkout's `binring` entry. */
export type LocalClusterOptions = Omit<LauncherOptions, "cli"> & { cli?: string };

/** Every test cluster runs Redis, so each member has one. */
export interface ClusterMember extends BackendMember {
  redis: RedisProcess;
}

/** The launcher's cluster, as tests use it: on Redis, FAST_KEEPER_ARGS unless told, stopped with SIGKILL. */
export interface LocalCluster extends Omit<Launcher, "members" | "member"> {
  readonly members: ClusterMember[];
  member(address: string): ClusterMember;
}

export const LocalCluster = {
  start: async (options: LocalClusterOptions): Promise<LocalCluster> => {
    const cluster = (await Launcher.start({
      cli: CLI_MAIN,
      store: "redis",
      keeperArgs: FAST_KEEPER_ARGS,
      stopSignal: "SIGKILL",
      ...options,
    })) as LocalCluster;
    // Its logs go with its directory: after a failed test, print what they end with first.
    const stop = cluster.stop.bind(cluster);
    return Object.assign(cluster, {
      stop: async () => {
        if (anyTestFailed()) printLogTails(cluster.dir);
        await stop();
      },
    });
  },
};
