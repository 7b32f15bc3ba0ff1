// A whole cluster of local processes: per backend a redis-server (or the
// memory engine) and a `binring backend`, then the keepers, all reading one
// cluster file. Used by `binring dev`, `binring chaos --local`, the tests and
// the benchmarks. Every address is chosen before anything binds it (a
// restart binds the same address again), and each process can be killed,
// restarted, paused and resumed, by index or by address.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BackendKill, ClusterControl, NetworkControl, NetworkNode } from "@binring/chaos";
import { addBackend, removeBackend } from "@binring/client";
import { roleFiles, type TlsFiles } from "@binring/core";
import { type Logger, pino } from "pino";
import {
  chooseAddresses,
  describeProcesses,
  type MemberAddresses,
  newBackendMember,
} from "./backend-members.js";
import { writeClusterFile, writeSecret } from "./cluster-files.js";
import { backendCommandLine, keeperCommandLine } from "./command-lines.js";
import { firstKeeper } from "./first-keeper.js";
import { freePort } from "./free-port.js";
import { spreadKeepers } from "./keeper-addresses.js";
import type { BackendMember, KeeperSlot, LocalClusterOptions } from "./local-cluster-options.js";
import { ManagedProcess } from "./managed-process.js";
import { hasRedisServer } from "./redis-process.js";

export class LocalCluster implements ClusterControl {
  readonly members: BackendMember[] = [];
  readonly #keepers: KeeperSlot[] = [];
  readonly #paused = new Set<ManagedProcess>();
  /** Processes this cluster killed or stopped: their exit is expected. */
  readonly #stopping = new Set<ManagedProcess>();
  readonly #unexpectedExits: string[] = [];
  readonly #logger: Logger;
  readonly #ownsDir: boolean;
  readonly dir: string;
  readonly configPath: string;
  /** Every Redis of the cluster requires it; also in DIR/redis-password, for redis-cli -a. */
  readonly #redisPassword = randomBytes(18).toString("base64url");

  private constructor(private readonly options: LocalClusterOptions) {
    this.#logger = options.logger ?? pino({ level: "silent" });
    this.#ownsDir = options.dir === undefined;
    this.dir = options.dir ?? mkdtempSync(join(tmpdir(), "binring-cluster-"));
    this.configPath = options.configPath ?? join(this.dir, "binring.json");
  }

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
    return this.members.map((member) => member.address);
  }

  /** The same as `backends`: every backend address, in cluster-file order. */
  get addresses(): string[] {
    return this.backends;
  }

  get keepers(): string[] {
    return this.#keepers.map((slot) => slot.address);
  }

  /** Cuts and slow links between the processes, when they run in namespaces of their own (options.network). */
  get network(): NetworkControl | undefined {
    return this.options.network?.control;
  }

  /** How many backends can ever run: in a network, as many as it has namespaces for; otherwise no bound. */
  get maxBackends(): number | undefined {
    return this.options.network?.backendSlots;
  }

  /** Each keeper's running process; undefined while it is down. */
  get keeperProcesses(): (ManagedProcess | undefined)[] {
    return this.#keepers.map((slot) => slot.child);
  }

  /** HTTP (status) address of each running keeper; undefined while it is down. */
  get keeperHttp(): (string | undefined)[] {
    return this.#keepers.map((slot) => (slot.child ? slot.http : undefined));
  }

  /** The client certificate the cluster file names (undefined without TLS). */
  get clientTls(): TlsFiles | undefined {
    return this.options.tlsDir === undefined ? undefined : roleFiles(this.options.tlsDir, "client");
  }

  /** Plaintext on a namespace's address is not loopback, so the processes must be told it is meant. */
  get #tlsArgs(): string[] {
    if (this.options.tlsDir !== undefined) return ["--tls-dir", this.options.tlsDir];
    return this.options.network ? ["--insecure"] : [];
  }

  get usesRedis(): boolean {
    return this.members.every((member) => member.redis !== undefined);
  }

  member(address: string): BackendMember {
    const member = this.members.find((m) => m.address === address);
    if (!member) throw new Error(`${address} is not in this cluster`);
    return member;
  }

  /** One row per process: name, address, store or HTTP address, pid. */
  describe(): string[][] {
    return describeProcesses(this.members, this.#keepers);
  }

  // ---- backends ----
  async killBackend(index: number, how: BackendKill): Promise<void> {
    const member = this.#member(index);
    if (how !== "redis" || !member.redis) await this.#killBackendProcess(member);
    if (member.redis && how !== "backend") {
      await this.#kill(member.redis.process);
      if (how === "wipe" || how === "redis") member.redis.wipe();
    }
  }

  /** Starts a killed backend again on its address (and its redis-server, if that was killed; only that, if the backend runs). */
  async restartBackend(index: number): Promise<void> {
    const member = this.#member(index);
    if (member.backend && (!member.redis || member.redis.running))
      throw new Error(`${member.name} is running: kill it before restarting it`);
    if (member.redis && !member.redis.running) await this.#startRedis(member);
    if (!member.backend) await this.#startBackend(member);
  }

  /** SIGKILLs the backend process, and its redis-server too when `withRedis`. */
  async kill(address: string, options: { withRedis?: boolean } = {}): Promise<void> {
    await this.killBackend(this.member(address).index, options.withRedis ? "with-redis" : "backend");
  }

  /**
   * Starts the backend (again) on its address. `redis: "old"` keeps or
   * restarts its Redis from its append-only file (stale data); "empty" starts
   * it again with no files. `ready` starts the backend ready.
   */
  async restart(address: string, options: { redis?: "old" | "empty"; ready?: boolean } = {}): Promise<void> {
    const member = this.member(address);
    await this.#killBackendProcess(member);
    if (member.redis && options.redis === "empty") {
      await this.#kill(member.redis.process);
      member.redis.wipe();
    }
    if (member.redis && !member.redis.running) await this.#startRedis(member);
    await this.#startBackend(member, options.ready);
  }

  // ---- keepers ----
  /** Starts keeper i (again) and resolves with its HTTP address once it serves. */
  async startKeeper(index: number): Promise<string> {
    const slot = this.#keeper(index);
    if (slot.child?.running) throw new Error(`${slot.name} is running: kill it before restarting it`);
    const { args, env } = keeperCommandLine(this.options, this.configPath, index, slot, this.#tlsArgs);
    slot.child = this.#watch(
      await this.#spawn(
        slot.name,
        process.execPath,
        args,
        /"msg":"keeper listening"/,
        env,
        `keeper-${index}`,
      ),
    );
    return slot.http;
  }

  async killKeeper(index: number): Promise<void> {
    const slot = this.#keeper(index);
    await this.#kill(slot.child);
    slot.child = undefined;
  }

  async restartKeeper(index: number): Promise<void> {
    await this.startKeeper(index);
  }

  // ---- any process ----
  pause(kind: "backend" | "keeper", index: number): void {
    const child = this.#process(kind, index);
    if (!child) throw new Error(`${kind}-${index} is not running: nothing to pause`);
    child.signal("SIGSTOP");
    this.#paused.add(child);
  }

  resume(kind: "backend" | "keeper", index: number): void {
    const child = this.#process(kind, index);
    if (!child) return;
    child.signal("SIGCONT");
    this.#paused.delete(child);
  }

  unexpectedExits(): readonly string[] {
    return this.#unexpectedExits;
  }

  /** Stops every process: keepers first (so none declares the stopping backends dead), then backends, then Redis. */
  async stop(): Promise<void> {
    const signal = this.options.stopSignal ?? "SIGTERM";
    for (const child of this.#paused) child.signal("SIGCONT");
    this.#paused.clear();
    const stopAll = (children: (ManagedProcess | undefined)[]) =>
      Promise.all(
        children.map(async (child) => {
          if (!child) return;
          this.#stopping.add(child);
          await child.kill(signal);
        }),
      );
    await stopAll(this.#keepers.map((slot) => slot.child));
    await stopAll(this.members.map((member) => member.backend?.child));
    await stopAll(this.members.map((member) => member.redis?.process));
    if (this.#ownsDir) rmSync(this.dir, { recursive: true, force: true });
  }

  // ---- starting ----
  async #startAll(): Promise<void> {
    const { options } = this;
    const store = options.store ?? (hasRedisServer() ? "redis" : "memory");
    if (store === "memory")
      this.#logger.warn("backends use the in-memory engine: redis-server is not used, data ends with them");
    else writeSecret(join(this.dir, "redis-password"), this.#redisPassword);
    const { network } = options;
    const keeperHost = (i: number) => network?.address(`keeper-${i}`) ?? "127.0.0.1";
    const addresses: { address: string; http: string; redisPort: number }[] = [];
    for (let i = 0; i < options.backends; i++) addresses.push(await chooseAddresses(this.options, i));
    const members = await Promise.all(addresses.map((chosen, i) => this.#newMember(i, chosen)));
    this.members.push(...members);
    const keeperCount = options.keepers ?? 0;
    const portBase = options.portBase ?? 0;
    const port = async (offset: number, i: number) =>
      portBase === 0 ? await freePort() : portBase + offset + i;
    const keepers =
      portBase === 0
        ? await spreadKeepers(keeperCount, this.backends, keeperHost)
        : Array.from({ length: keeperCount }, (_, i) => `${keeperHost(i)}:${portBase + 500 + i}`);
    for (const [i, address] of keepers.entries())
      this.#keepers.push({
        name: `keeper-${i}`,
        address,
        http: `${keeperHost(i)}:${await port(600, i)}`,
        child: undefined,
      });
    const zoneOf = options.zoneOf;
    writeClusterFile(this.configPath, {
      backends: this.backends,
      keepers: this.keepers,
      ...(zoneOf && { zones: Object.fromEntries(this.members.map((m) => [m.address, zoneOf(m.index)])) }),
      tls: this.clientTls,
    });
    const running = options.running ?? options.backends;
    await Promise.all(this.members.slice(0, running).map((member) => this.#startBackend(member)));
    for (let i = 0; i < this.#keepers.length; i++) await this.startKeeper(i);
  }

  /** Backend `i` on the addresses chosen for it, its Redis started and watched, its backend not yet. */
  async #newMember(i: number, chosen: MemberAddresses): Promise<BackendMember> {
    const member = await newBackendMember(this.options, this.dir, this.#redisPassword, i, chosen);
    if (member.redis) this.#watch(member.redis.process!);
    return member;
  }

  /**
   * Starts one more backend (and its Redis), plainly, as an operator starts
   * one to add with `binring admin add-backend`: the cluster file does not list
   * it and the keepers do not know it yet. Returns its address. In a cluster
   * network, past its namespaces (maxBackends) it throws.
   */
  async startExtraBackend(): Promise<string> {
    const i = this.members.length;
    const member = await this.#newMember(i, await chooseAddresses(this.options, i));
    this.members.push(member);
    await this.#startBackend(member, false);
    return member.address;
  }

  /** A backend started now and added to the ring by the keepers (binring admin add-backend); its index. */
  async joinBackend(): Promise<number> {
    const address = await this.startExtraBackend();
    await this.#askKeepers((keeper, tls) => addBackend(keeper, address, "", tls));
    return this.member(address).index;
  }

  /** Asks the keepers to decommission backend `index` (binring admin remove-backend). */
  async decommissionBackend(index: number): Promise<void> {
    const { address } = this.#member(index);
    await this.#askKeepers((keeper, tls) => removeBackend(keeper, address, tls));
  }

  /** Stops a backend that left the ring, and its Redis, for good. */
  async retireBackend(index: number): Promise<void> {
    await this.killBackend(index, "with-redis");
  }

  /** A membership call on the first keeper that takes it, with the admin certificate when the cluster has TLS. */
  #askKeepers<T>(ask: (keeper: string, tls: TlsFiles | undefined) => Promise<T>): Promise<T> {
    return firstKeeper(
      this.keepers,
      this.options.tlsDir === undefined ? undefined : roleFiles(this.options.tlsDir, "admin"),
      ask,
    );
  }

  async #startRedis(member: BackendMember): Promise<void> {
    await member.redis!.restart();
    this.#watch(member.redis!.process!);
  }

  async #startBackend(member: BackendMember, ready?: boolean): Promise<void> {
    const { options } = this;
    const startReady = ready ?? options.ready ?? (options.keepers ?? 0) === 0;
    const { args, env } = backendCommandLine(options, member, startReady, this.#tlsArgs);
    const node = `backend-${member.index}` as const;
    const child = await this.#spawn(
      member.name,
      process.execPath,
      args,
      /"msg":"backend listening"/,
      env,
      node,
    );
    member.backend = { address: member.address, child: this.#watch(child) };
  }

  #spawn(
    name: string,
    command: string,
    args: string[],
    readyLine: RegExp,
    env: Record<string, string>,
    node: Exclude<NetworkNode, "clients">,
  ): Promise<ManagedProcess> {
    return ManagedProcess.spawn(name, command, args, {
      readyLine,
      env,
      timeoutMs: 20_000,
      logFile: join(this.dir, "logs", `${name}.log`),
      netns: this.options.network?.namespace(node),
    }).then(({ child }) => child);
  }

  /** Records the process's exit as unexpected unless this cluster killed or stopped it. */
  #watch(child: ManagedProcess): ManagedProcess {
    void child.waitExit().then(({ code, signal }) => {
      if (this.#stopping.delete(child)) return;
      const log = join(this.dir, "logs", `${child.name}.log`);
      this.#logger.error(
        { child: child.name, code, signal, log },
        "child process exited without being killed",
      );
      this.#unexpectedExits.push(
        `${child.name} (pid ${child.pid}) exited with ${signal ? `signal ${signal}` : `code ${code}`} without being killed; see ${log}`,
      );
    });
    return child;
  }

  async #killBackendProcess(member: BackendMember): Promise<void> {
    await this.#kill(member.backend?.child);
    member.backend = undefined;
  }

  /** SIGKILL, resolved once the process is gone (its port is then free to bind again). */
  async #kill(child: ManagedProcess | undefined): Promise<void> {
    if (!child?.running) return;
    this.#paused.delete(child);
    this.#stopping.add(child);
    await child.kill("SIGKILL");
  }

  #process(kind: "backend" | "keeper", index: number): ManagedProcess | undefined {
    return kind === "backend" ? this.#member(index).backend?.child : this.#keeper(index).child;
  }

  #member(index: number): BackendMember {
    const member = this.members[index];
    if (!member) throw new Error(`no backend ${index}: the cluster has ${this.members.length}`);
    return member;
  }

  #keeper(index: number): KeeperSlot {
    const slot = this.#keepers[index];
    if (!slot) throw new Error(`no keeper ${index}: the cluster has ${this.#keepers.length}`);
    return slot;
  }
}
