// A cluster of real processes for tests: N redis-servers, each with one
// `binring backend` process in front of it, and optionally keeper processes
// reading a cluster file. Backends and keepers can be killed, paused and
// restarted by address or index.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@binring/core";
import { KeeperRing } from "@binring/keeper";
import { type BackendProcess, CLI_MAIN, startBackendProcess } from "./binring-process.js";
import { ChildProcess } from "./child.js";
import { RedisServer, type RedisServerOptions } from "./redis-server.js";

export interface ClusterMember {
  redis: RedisServer;
  backend: BackendProcess | undefined;
  address: string;
}

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

export interface LocalClusterOptions {
  /** Backends listed in the cluster file. */
  backends: number;
  /** How many of them start now (the first ones); the rest start with restart(). @default all */
  running?: number;
  /** Keeper processes. @default 0 */
  keepers?: number;
  /** Flags for every keeper. @default FAST_KEEPER_ARGS */
  keeperArgs?: string[];
  /** Start backends ready. @default true without keepers, false with them (keepers bootstrap) */
  ready?: boolean;
  /** Give each Redis an append-only file (so a restarted Redis brings its data back). @default true */
  appendOnly?: boolean;
  /** Zone of backend i, written to the cluster file's "zones". @default none (zone-blind placement) */
  zoneOf?: (i: number) => string;
  /** Extra flags for every backend, at start and restart. @default none */
  backendArgs?: string[];
  /**
   * Durability, as `binring dev --appendfsync` sets it: every Redis starts with
   * an append-only file synced this way (whatever `appendOnly` says), and every
   * backend gets `--appendfsync` so it sets it again on each connection.
   * @default unset: Redis as `appendOnly` says, backends leave it alone
   */
  appendfsync?: "always" | "everysec";
}

export class LocalCluster {
  readonly keeperProcesses: (ChildProcess | undefined)[] = [];
  /** HTTP (status) address of each running keeper; undefined while it is down. */
  readonly keeperHttp: (string | undefined)[] = [];

  private constructor(
    readonly members: ClusterMember[],
    readonly keepers: string[],
    readonly configPath: string,
    private readonly keeperArgs: string[],
    private readonly backendArgs: string[],
    /** For a Redis started anew on restart: always append-only, else a restart brings nothing back. */
    private readonly restartRedisOptions: RedisServerOptions,
  ) {}

  static async start(options: LocalClusterOptions): Promise<LocalCluster> {
    const keeperCount = options.keepers ?? 0;
    const ready = options.ready ?? keeperCount === 0;
    const running = options.running ?? options.backends;
    const { appendfsync } = options;
    const redisOptions: RedisServerOptions = appendfsync
      ? { appendOnly: true, appendfsync }
      : { appendOnly: options.appendOnly ?? true };
    const backendArgs = [
      ...(options.backendArgs ?? []),
      ...(appendfsync ? ["--appendfsync", appendfsync] : []),
    ];
    const members = await Promise.all(
      Array.from({ length: options.backends }, async (_, i) => {
        const redis = await RedisServer.start(redisOptions);
        if (i >= running) return { redis, backend: undefined, address: `127.0.0.1:${await freePort()}` };
        const backend = await startBackendProcess({
          redisUrl: redis.url,
          ready,
          extraArgs: backendArgs,
        });
        return { redis, backend, address: backend.address };
      }),
    );
    const keepers = await keeperAddresses(
      keeperCount,
      members.map((member) => member.address),
    );
    const configPath = join(mkdtempSync(join(tmpdir(), "binring-cluster-")), "binring.json");
    const zoneOf = options.zoneOf;
    const zones = zoneOf && Object.fromEntries(members.map((m, i) => [m.address, zoneOf(i)]));
    writeFileSync(
      configPath,
      JSON.stringify({ backends: members.map((m) => m.address), keepers, ...(zones && { zones }) }, null, 2),
    );
    const cluster = new LocalCluster(
      members,
      keepers,
      configPath,
      options.keeperArgs ?? FAST_KEEPER_ARGS,
      backendArgs,
      { ...redisOptions, appendOnly: true },
    );
    for (let i = 0; i < keeperCount; i++) await cluster.startKeeper(i);
    return cluster;
  }

  get addresses(): string[] {
    return this.members.map((member) => member.address);
  }

  member(address: string): ClusterMember {
    const member = this.members.find((m) => m.address === address);
    if (!member) throw new Error(`${address} is not in this cluster`);
    return member;
  }

  /** Starts keeper i (again) and resolves with its HTTP address once it serves. */
  async startKeeper(i: number): Promise<string> {
    const { child, match } = await ChildProcess.spawn(
      `keeper-${i}`,
      process.execPath,
      [CLI_MAIN, "keeper", "--config", this.configPath, "--index", String(i), ...this.keeperArgs],
      { readyLine: /"http":"([^"]+)"/ },
    );
    this.keeperProcesses[i] = child;
    this.keeperHttp[i] = match[1]!;
    return match[1]!;
  }

  async killKeeper(i: number): Promise<void> {
    await this.keeperProcesses[i]?.kill("SIGKILL");
    this.keeperProcesses[i] = undefined;
    this.keeperHttp[i] = undefined;
  }

  /** SIGKILLs the backend process, and its redis-server too when `withRedis`. */
  async kill(address: string, options: { withRedis?: boolean } = {}): Promise<void> {
    const member = this.member(address);
    await member.backend?.child.kill("SIGKILL");
    member.backend = undefined;
    if (options.withRedis) await member.redis.kill("SIGKILL");
  }

  /**
   * Starts the backend (again) on its address. `redis: "old"` keeps or
   * restarts its Redis from its append-only file (stale data); "empty" starts
   * a new empty one.
   */
  async restart(address: string, options: { redis?: "old" | "empty"; ready?: boolean } = {}): Promise<void> {
    const member = this.member(address);
    if (member.backend) await this.kill(address);
    if (options.redis === "empty") {
      await member.redis.destroy();
      member.redis = await RedisServer.start(this.restartRedisOptions);
    } else if (!member.redis.running) {
      await member.redis.restart();
    }
    member.backend = await startBackendProcess({
      redisUrl: member.redis.url,
      listen: address,
      ready: options.ready,
      extraArgs: this.backendArgs,
    });
  }

  async stop(): Promise<void> {
    await Promise.all(this.keeperProcesses.map((keeper) => keeper?.kill("SIGKILL")));
    await Promise.all(
      this.members.map(async (member) => {
        await member.backend?.child.kill("SIGKILL");
        await member.redis.destroy();
      }),
    );
  }
}

/**
 * Addresses for `count` keepers such that each owns at least one of the
 * backends (when there are enough backends to go round). Random ports leave
 * some keeper an empty slice in about 3 of 10 clusters of 3 keepers and 6
 * backends, and all six with one keeper in 1 of 200: a test of slices, their
 * boundaries or their hand-over would then test nothing, or fail for want of
 * a second slice. A keeper with an empty slice gets a fresh port until it
 * owns one.
 */
async function keeperAddresses(count: number, backends: readonly string[]): Promise<string[]> {
  const pick = async () => `127.0.0.1:${await freePort()}`;
  const keepers = await Promise.all(Array.from({ length: count }, pick));
  if (count === 0 || count > backends.length) return keepers;
  for (let attempt = 1; ; attempt++) {
    const slices = new KeeperRing(keepers).slices(backends, () => true);
    const idle = keepers.flatMap((keeper, i) => (slices.get(keeper)!.length === 0 ? [i] : []));
    if (idle.length === 0) return keepers;
    if (attempt === 1000) throw new Error(`no keeper layout gives each of ${count} keepers a backend`);
    for (const i of idle) keepers[i] = await pick();
  }
}
