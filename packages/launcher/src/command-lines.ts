// The command line of each process a local cluster starts: `binring backend`
// and `binring keeper` with the flags the cluster's options and the process's
// slot call for.
import type { BackendMember, KeeperSlot, LocalClusterOptions } from "./local-cluster-options.js";

export interface CommandLine {
  args: string[];
  env: Record<string, string>;
}

/** `tlsArgs`: the cluster's --tls-dir or --insecure, the same for every process. */
export function backendCommandLine(
  options: LocalClusterOptions,
  member: BackendMember,
  ready: boolean,
  tlsArgs: string[],
): CommandLine {
  return {
    args: [
      options.cli,
      "backend",
      "--listen",
      member.address,
      "--http",
      member.http,
      ...(member.redis ? [] : ["--store", "memory"]),
      ...(options.appendfsync && member.redis ? ["--appendfsync", options.appendfsync] : []),
      ...(ready ? ["--ready"] : []),
      ...tlsArgs,
      ...(options.backendArgs ?? []),
    ],
    // The Redis URL carries its password: it goes by environment, which no process listing shows.
    env: member.redis ? { BINRING_REDIS: member.redis.backendUrl } : {},
  };
}

export function keeperCommandLine(
  options: LocalClusterOptions,
  configPath: string,
  index: number,
  slot: KeeperSlot,
  tlsArgs: string[],
): CommandLine {
  return {
    args: [
      options.cli,
      "keeper",
      "--config",
      configPath,
      "--index",
      String(index),
      "--http",
      slot.http,
      ...tlsArgs,
      ...(options.keeperArgs ?? []),
    ],
    env: {},
  };
}
