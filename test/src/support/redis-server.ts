// A real redis-server for tests, on a free port with its own directory.
// Restart keeps port and directory, so an append-only file brings data back.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@binring/core";
import { ChildProcess } from "./child.js";

export interface RedisServerOptions {
  /** Keep an append-only file, so restart() brings the data back. @default false */
  appendOnly?: boolean;
  /** How the append-only file is synced (when there is one). @default "always" */
  appendfsync?: "always" | "everysec";
}

let checked = false;
function ensureRedisServer(): void {
  if (checked) return;
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    checked = true;
  } catch {
    throw new Error("redis-server is not on PATH; install it (apt-get install -y redis-server)");
  }
}

export class RedisServer {
  #process: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly options: RedisServerOptions,
  ) {}

  static async start(options: RedisServerOptions = {}): Promise<RedisServer> {
    ensureRedisServer();
    const dir = mkdtempSync(join(tmpdir(), "binring-redis-"));
    for (let attempt = 0; ; attempt++) {
      const server = new RedisServer(await freePort(), dir, options);
      try {
        await server.#launch();
        return server;
      } catch (error) {
        // Another process may have taken the port between picking and binding it.
        if (attempt >= 3) throw error;
      }
    }
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.#process?.running ?? false;
  }

  get pid(): number {
    return this.#process?.pid ?? -1;
  }

  async #launch(): Promise<void> {
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--dir", this.dir];
    args.push(
      "--appendonly",
      this.options.appendOnly ? "yes" : "no",
      "--appendfsync",
      this.options.appendfsync ?? "always",
      "--logfile",
      "",
    );
    const { child } = await ChildProcess.spawn(`redis:${this.port}`, "redis-server", args, {
      readyLine: /Ready to accept connections/,
    });
    this.#process = child;
  }

  /**
   * Starts it again on the same port and directory (after stop or kill);
   * `empty` deletes its files first, as if its disk had been lost.
   */
  async restart(options: { empty?: boolean } = {}): Promise<void> {
    if (this.running) await this.stop();
    if (options.empty) {
      for (const file of readdirSync(this.dir))
        rmSync(join(this.dir, file), { recursive: true, force: true });
    }
    await this.#launch();
  }

  signal(signal: NodeJS.Signals): void {
    this.#process?.signal(signal);
  }

  async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    await this.#process?.kill(signal);
  }

  /** Stops it and removes its directory unless it may be restarted. */
  async stop(): Promise<void> {
    await this.#process?.kill("SIGTERM");
  }

  /** Stops it and deletes its files. */
  async destroy(): Promise<void> {
    await this.kill("SIGKILL");
    rmSync(this.dir, { recursive: true, force: true });
  }
}
