// A whole cluster of local processes, owned by the command that started it
// (`binring dev`, `binring chaos --local`): per backend a redis-server
// (append-only, under --dir, synced as `appendfsync` says; the memory engine
// when redis-server is missing) and a `binring backend` that holds its Redis
// to that appendfsync, then the keepers, all reading one cluster file.
// Each process can be killed, restarted on its own address, paused and
// resumed by index, which is what the chaos runner needs.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BackendKill, ClusterControl } from "@binring/chaos";
import { type ClusterConfig, freePort } from "@binring/core";
import type { Logger } from "pino";
import {
  type Appendfsync,
  type Child,
  CLI_MAIN,
  hasRedisServer,
  startChild,
  startRedis,
  stopAll,
} from "./processes.js";

export interface LocalClusterOptions {
  backends: number;
  keepers: number;
  /** Redis data and logs go under it. */
  dir: string;
  /** The cluster file written for the keepers and clients. */
  configPath: string;
  /** Backend i listens on portBase + i, its Redis on + 1000 + i, keepers on + 500 + i (HTTP + 600 + i); 0 picks free ports. */
  portBase: number;
  /** Extra flags for every keeper (timing). @default [] */
  keeperArgs?: string[];
  /**
   * Every Redis's appendfsync: each redis-server starts with it, and each
   * backend gets `--appendfsync` so it sets it again on every connection.
   * "always" is power-loss safe and costs write throughput (`npm run bench -- durability`).
   * Without redis-server (the memory engine) it means nothing. @default "everysec"
   */
  appendfsync?: Appendfsync;
  logger: Logger;
}

interface BackendSlot {
  name: string;
  address: string;
  /** Absent with the memory engine. */
  redis?: { port: number; dir: string; child: Child | undefined };
  child: Child | undefined;
}

interface KeeperSlot {
  name: string;
  address: string;
  http: string;
  child: Child | undefined;
}

export class LocalCluster implements ClusterControl {
  readonly #slots: BackendSlot[] = [];
  readonly #keeperSlots: KeeperSlot[] = [];
  readonly #paused = new Set<Child>();
  /** Children this cluster killed or stopped: their exit is expected. */
  readonly #stopping = new Set<Child>();
  readonly #unexpectedExits: string[] = [];

  private constructor(private readonly options: LocalClusterOptions) {}

  /** Starts every process; on failure stops those already started and throws. */
  static async start(options: LocalClusterOptions): Promise<LocalCluster> {
    const cluster = new LocalCluster(options);
    try {
      await cluster.#startAll();
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  get backends(): string[] {
    return this.#slots.map((slot) => slot.address);
  }

  get keepers(): string[] {
    return this.#keeperSlots.map((slot) => slot.address);
  }

  get usesRedis(): boolean {
    return this.#slots.every((slot) => slot.redis !== undefined);
  }

  get appendfsync(): Appendfsync {
    return this.options.appendfsync ?? "everysec";
  }

  /** One row per process: name, address, store or HTTP address, pid. */
  describe(): string[][] {
    return [
      ...this.#slots.map((slot) => [
        slot.name,
        slot.address,
        slot.redis ? `redis 127.0.0.1:${slot.redis.port}` : "memory",
        String(slot.child?.process.pid ?? "-"),
      ]),
      ...this.#keeperSlots.map((slot) => [
        slot.name,
        slot.address,
        `http ${slot.http}`,
        String(slot.child?.process.pid ?? "-"),
      ]),
    ];
  }

  async #startAll(): Promise<void> {
    const { options } = this;
    const port = async (offset: number, i: number) =>
      options.portBase === 0 ? await freePort() : options.portBase + offset + i;
    const useRedis = hasRedisServer();
    if (!useRedis)
      options.logger.warn(
        `redis-server not found on PATH: backends use the in-memory engine (data ends with them${this.appendfsync === "always" ? "; appendfsync always has nothing to sync" : ""})`,
      );
    for (let i = 0; i < options.backends; i++) {
      const slot: BackendSlot = {
        name: `backend-${i}`,
        address: `127.0.0.1:${await port(0, i)}`,
        child: undefined,
      };
      if (useRedis)
        slot.redis = { port: await port(1000, i), dir: join(options.dir, `redis-${i}`), child: undefined };
      this.#slots.push(slot);
      await this.#startBackend(slot);
    }
    for (let i = 0; i < options.keepers; i++) {
      this.#keeperSlots.push({
        name: `keeper-${i}`,
        address: `127.0.0.1:${await port(500, i)}`,
        http: `127.0.0.1:${await port(600, i)}`,
        child: undefined,
      });
    }
    const config: ClusterConfig = { backends: this.backends, keepers: this.keepers };
    writeFileSync(options.configPath, `${JSON.stringify(config, null, 2)}\n`);
    for (const slot of this.#keeperSlots) await this.#startKeeper(slot);
  }

  async #startBackend(slot: BackendSlot): Promise<void> {
    const { logger, dir, keepers } = this.options;
    const store: string[] = ["--store", "memory"];
    if (slot.redis) {
      if (!slot.redis.child) await this.#startRedis(slot, slot.redis);
      store.splice(
        0,
        2,
        "--redis",
        `redis://127.0.0.1:${slot.redis.port}`,
        "--appendfsync",
        this.appendfsync,
      );
    }
    slot.child = this.#watch(
      await startChild(
        slot.name,
        process.execPath,
        // Without keepers nobody would ever declare the fresh backends ready, so they start ready.
        [CLI_MAIN, "backend", "--listen", slot.address, ...store, ...(keepers === 0 ? ["--ready"] : [])],
        /"msg":"backend listening"/,
        logger,
        join(dir, "logs", `${slot.name}.log`),
      ),
    );
  }

  async #startRedis(slot: BackendSlot, redis: NonNullable<BackendSlot["redis"]>): Promise<void> {
    const { logger, dir } = this.options;
    const index = slot.name.slice("backend-".length);
    redis.child = this.#watch(
      await startRedis(
        `redis-${index}`,
        redis.port,
        redis.dir,
        this.appendfsync,
        logger,
        join(dir, "logs", `redis-${index}.log`),
      ),
    );
  }

  async #startKeeper(slot: KeeperSlot): Promise<void> {
    const { logger, dir, configPath, keeperArgs } = this.options;
    const index = slot.name.slice("keeper-".length);
    slot.child = this.#watch(
      await startChild(
        slot.name,
        process.execPath,
        [
          CLI_MAIN,
          "keeper",
          "--config",
          configPath,
          "--index",
          index,
          "--http",
          slot.http,
          ...(keeperArgs ?? []),
        ],
        /"msg":"keeper listening"/,
        logger,
        join(dir, "logs", `${slot.name}.log`),
      ),
    );
  }

  async killBackend(index: number, how: BackendKill): Promise<void> {
    const slot = this.#backendSlot(index);
    if (how !== "redis" || !slot.redis) {
      await this.#kill(slot.child);
      slot.child = undefined;
    }
    if (slot.redis && how !== "backend") {
      await this.#kill(slot.redis.child);
      slot.redis.child = undefined;
      if (how === "wipe" || how === "redis") rmSync(slot.redis.dir, { recursive: true, force: true });
    }
  }

  async restartBackend(index: number): Promise<void> {
    const slot = this.#backendSlot(index);
    if (slot.child && slot.redis?.child)
      throw new Error(`${slot.name} is running: kill it before restarting it`);
    if (slot.child) await this.#startRedis(slot, slot.redis!);
    else await this.#startBackend(slot);
  }

  async killKeeper(index: number): Promise<void> {
    const slot = this.#keeperSlot(index);
    await this.#kill(slot.child);
    slot.child = undefined;
  }

  async restartKeeper(index: number): Promise<void> {
    const slot = this.#keeperSlot(index);
    if (slot.child) throw new Error(`${slot.name} is running: kill it before restarting it`);
    await this.#startKeeper(slot);
  }

  pause(kind: "backend" | "keeper", index: number): void {
    const child = (kind === "backend" ? this.#backendSlot(index) : this.#keeperSlot(index)).child;
    if (!child) throw new Error(`${kind}-${index} is not running: nothing to pause`);
    child.process.kill("SIGSTOP");
    this.#paused.add(child);
  }

  resume(kind: "backend" | "keeper", index: number): void {
    const child = (kind === "backend" ? this.#backendSlot(index) : this.#keeperSlot(index)).child;
    if (!child) return;
    child.process.kill("SIGCONT");
    this.#paused.delete(child);
  }

  unexpectedExits(): readonly string[] {
    return this.#unexpectedExits;
  }

  /** Records the child's exit as unexpected unless this cluster killed or stopped it. */
  #watch(child: Child): Child {
    child.process.once("exit", (code, signal) => {
      if (this.#stopping.delete(child)) return;
      const how = signal ? `signal ${signal}` : `code ${code}`;
      const log = join(this.options.dir, "logs", `${child.name}.log`);
      this.options.logger.error(
        { child: child.name, code, signal, log },
        "child process exited without being killed",
      );
      this.#unexpectedExits.push(
        `${child.name} (pid ${child.process.pid}) exited with ${how} without being killed; see ${log}`,
      );
    });
    return child;
  }

  /** Stops every process: keepers first (so none declares the stopping backends dead), then backends, then Redis. */
  async stop(): Promise<void> {
    for (const child of this.#paused) child.process.kill("SIGCONT");
    this.#paused.clear();
    for (const child of this.#running()) this.#stopping.add(child);
    await stopAll(this.#keeperSlots.flatMap((slot) => (slot.child ? [slot.child] : [])));
    await stopAll(this.#slots.flatMap((slot) => (slot.child ? [slot.child] : [])));
    await stopAll(this.#slots.flatMap((slot) => (slot.redis?.child ? [slot.redis.child] : [])));
  }

  #running(): Child[] {
    return [
      ...this.#keeperSlots.map((slot) => slot.child),
      ...this.#slots.flatMap((slot) => [slot.child, slot.redis?.child]),
    ].filter((child): child is Child => child !== undefined);
  }

  #backendSlot(index: number): BackendSlot {
    const slot = this.#slots[index];
    if (!slot) throw new Error(`no backend ${index}: the cluster has ${this.#slots.length}`);
    return slot;
  }

  #keeperSlot(index: number): KeeperSlot {
    const slot = this.#keeperSlots[index];
    if (!slot) throw new Error(`no keeper ${index}: the cluster has ${this.#keeperSlots.length}`);
    return slot;
  }

  /** SIGKILL, resolved once the process is gone (its port is then free to bind again). */
  async #kill(child: Child | undefined): Promise<void> {
    if (!child || child.process.exitCode !== null || child.process.signalCode !== null) return;
    this.#paused.delete(child);
    this.#stopping.add(child);
    await new Promise<void>((resolve) => {
      child.process.once("exit", () => resolve());
      child.process.kill("SIGKILL");
    });
  }
}
