// One child process of a local cluster: spawned with its output captured
// (kept in memory for error messages, and appended to a log file when one is
// given), resolved once a line says it serves, and killed for sure when this
// process exits.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { dirname } from "node:path";

const running = new Set<ChildProcessWithoutNullStreams>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** Lines of output kept for error messages. */
const KEPT_LINES = 200;
/** How long a SIGTERM may take before SIGKILL follows. */
const STOP_GRACE_MS = 5000;

export interface SpawnOptions {
  env?: Record<string, string>;
  /** Resolve once a line of stdout or stderr matches. */
  readyLine: RegExp;
  /** @default 15000 */
  timeoutMs?: number;
  /** Every line of output is appended here. */
  logFile?: string;
  /** @default this process's working directory */
  cwd?: string;
  /** Run it inside this network namespace (`ip netns exec`, which execs it: the pid stays its own). @default this process's */
  netns?: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class ManagedProcess {
  readonly #lines: string[] = [];
  readonly #listeners = new Set<(line: string) => void>();
  readonly #exited: Promise<Exit>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcessWithoutNullStreams,
    log: WriteStream | undefined,
  ) {
    running.add(child);
    this.#exited = new Promise((resolve) => {
      child.on("exit", (code, signal) => {
        running.delete(child);
        log?.end();
        resolve({ code, signal });
      });
    });
    const partial = { stdout: "", stderr: "" };
    for (const stream of ["stdout", "stderr"] as const) {
      child[stream].on("data", (chunk: Buffer) => {
        log?.write(chunk);
        const lines = (partial[stream] + chunk.toString()).split("\n");
        partial[stream] = lines.pop() ?? "";
        for (const line of lines) this.#onLine(line);
      });
    }
  }

  /** Spawns a process and resolves once a line of its output matches `readyLine`; kills it if none does in time. */
  static async spawn(
    name: string,
    command: string,
    args: string[],
    options: SpawnOptions,
  ): Promise<{ child: ManagedProcess; match: RegExpMatchArray }> {
    let log: WriteStream | undefined;
    if (options.logFile) {
      mkdirSync(dirname(options.logFile), { recursive: true });
      log = createWriteStream(options.logFile, { flags: "a" });
    }
    const [file, argv]: [string, string[]] = options.netns
      ? ["ip", ["netns", "exec", options.netns, command, ...args]]
      : [command, args];
    const process_ = spawn(file, argv, {
      env: { ...process.env, ...options.env },
      stdio: "pipe",
      cwd: options.cwd,
    });
    const child = new ManagedProcess(name, process_, log);
    const failedToSpawn = new Promise<never>((_, reject) =>
      process_.once("error", (error) => reject(new Error(`${name} could not start: ${error.message}`))),
    );
    try {
      const match = await Promise.race([
        child.waitForLine(options.readyLine, options.timeoutMs ?? 15_000),
        failedToSpawn,
      ]);
      return { child, match };
    } catch (error) {
      process_.kill("SIGKILL");
      throw error;
    }
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  output(): string {
    return this.#lines.join("\n");
  }

  /** Resolves with the first line from now on (or already seen, when `includeSeen`) matching re. */
  waitForLine(re: RegExp, timeoutMs = 15_000, includeSeen = true): Promise<RegExpMatchArray> {
    if (includeSeen) {
      for (const line of this.#lines) {
        const match = re.exec(line);
        if (match) return Promise.resolve(match);
      }
    }
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.#listeners.delete(listener);
      };
      const listener = (line: string) => {
        const match = re.exec(line);
        if (match) {
          done();
          resolve(match);
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(`${this.name}: no line matching ${re} within ${timeoutMs} ms; output:\n${this.output()}`),
        );
      }, timeoutMs);
      this.#listeners.add(listener);
      void this.#exited.then(({ code, signal }) => {
        if (!this.#listeners.has(listener)) return;
        done();
        reject(
          new Error(
            `${this.name} exited (${signal ?? code}) before printing ${re}; output:\n${this.output()}`,
          ),
        );
      });
    });
  }

  signal(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  /** Sends the signal and resolves once the process has exited; SIGTERM is followed by SIGKILL after a grace period. */
  async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    if (!this.running) return;
    const force =
      signal === "SIGTERM" ? setTimeout(() => this.child.kill("SIGKILL"), STOP_GRACE_MS) : undefined;
    this.child.kill(signal);
    await this.#exited;
    clearTimeout(force);
  }

  waitExit(): Promise<Exit> {
    return this.#exited;
  }

  #onLine(line: string): void {
    this.#lines.push(line);
    if (this.#lines.length > KEPT_LINES) this.#lines.shift();
    for (const listener of this.#listeners) listener(line);
  }
}
