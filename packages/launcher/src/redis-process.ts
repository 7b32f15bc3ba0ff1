// A redis-server for one backend, on a port chosen before it binds and a
// directory of its own. Restart keeps both, so an append-only file brings the
// data back; `empty` deletes the files first, as if its disk had been lost.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ManagedProcess } from "./managed-process.js";

/** Redis's fsync policy for its append-only file: "always" syncs every write (power-loss safe), "everysec" once a second. */
export type Appendfsync = "always" | "everysec";

/** sun_path's size on Linux, its terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = 108;

export interface RedisOptions {
  /** Keep an append-only file, so restart() brings the data back. @default true */
  appendOnly?: boolean;
  /** How the append-only file is synced. @default "everysec" */
  appendfsync?: Appendfsync;
  /** Every line of its output is appended here. @default none */
  logFile?: string;
  /** Clients must AUTH with it (put in a config file of its own, so no process listing shows it). @default none */
  password?: string;
  /** Run it in this network namespace (its backend's: it still listens on that namespace's 127.0.0.1). @default this process's */
  netns?: string;
}

export function hasRedisServer(): boolean {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export class RedisProcess {
  #process: ManagedProcess | undefined;

  private constructor(
    readonly name: string,
    readonly port: number,
    readonly dir: string,
    private readonly options: RedisOptions,
  ) {}

  static async start(
    name: string,
    port: number,
    dir: string,
    options: RedisOptions = {},
  ): Promise<RedisProcess> {
    const redis = new RedisProcess(name, port, dir, options);
    await redis.#launch();
    return redis;
  }

  /** The TCP URL, its password included: what tests and tools connect with. */
  get url(): string {
    const { password } = this.options;
    return `redis://${password === undefined ? "" : `:${encodeURIComponent(password)}@`}127.0.0.1:${this.port}`;
  }

  /**
   * The URL its backend connects with: its Unix socket, which costs both
   * processes less per call than loopback TCP (bench/results/NOTES.md), or the
   * TCP URL where the socket's path is too long for one (108 bytes on Linux).
   */
  get backendUrl(): string {
    const socket = this.#socketPath;
    if (socket === undefined) return this.url;
    const { password } = this.options;
    return `unix://${socket.split("/").map(encodeURIComponent).join("/")}${password === undefined ? "" : `?password=${encodeURIComponent(password)}`}`;
  }

  get #socketPath(): string | undefined {
    const path = resolve(this.dir, "redis.sock");
    return Buffer.byteLength(path) < MAX_SOCKET_PATH_BYTES ? path : undefined;
  }

  get running(): boolean {
    return this.#process?.running ?? false;
  }

  get pid(): number {
    return this.#process?.pid ?? -1;
  }

  get process(): ManagedProcess | undefined {
    return this.#process;
  }

  /** Starts it again on the same port and directory (after a stop or kill). */
  async restart(options: { empty?: boolean } = {}): Promise<void> {
    if (this.running) await this.stop();
    if (options.empty) this.wipe();
    await this.#launch();
  }

  /** Deletes its files (while it is not running): the next start is empty. */
  wipe(): void {
    for (const file of readdirSync(this.dir)) rmSync(join(this.dir, file), { recursive: true, force: true });
  }

  signal(signal: NodeJS.Signals): void {
    this.#process?.signal(signal);
  }

  async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    await this.#process?.kill(signal);
  }

  async stop(): Promise<void> {
    await this.#process?.kill("SIGTERM");
  }

  /** Kills it and deletes its directory. */
  async destroy(): Promise<void> {
    await this.kill("SIGKILL");
    rmSync(this.dir, { recursive: true, force: true });
  }

  async #launch(): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    const { appendOnly = true, appendfsync = "everysec", logFile, password, netns } = this.options;
    const config = join(this.dir, "redis.conf");
    writeFileSync(config, password === undefined ? "" : `requirepass "${password}"\n`, { mode: 0o600 });
    const args = [
      config,
      "--port",
      String(this.port),
      "--bind",
      "127.0.0.1",
      ...(this.#socketPath === undefined
        ? []
        : ["--unixsocket", this.#socketPath, "--unixsocketperm", "700"]),
      "--dir",
      this.dir,
      "--save",
      "",
      "--appendonly",
      appendOnly ? "yes" : "no",
      "--appendfsync",
      appendfsync,
      "--logfile",
      "",
    ];
    const { child } = await ManagedProcess.spawn(this.name, "redis-server", args, {
      readyLine: /Ready to accept connections/,
      logFile,
      netns,
    });
    this.#process = child;
  }
}
