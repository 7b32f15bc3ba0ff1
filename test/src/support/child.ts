// A child process for tests: spawned with its output captured, resolved once
// a line matches, killed for sure when the test run ends.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";

const running = new Set<ChildProcessWithoutNullStreams>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** Lines of output kept for error messages. */
const KEPT_LINES = 200;

export interface SpawnOptions {
  env?: Record<string, string>;
  /** Resolve once a line of stdout or stderr matches. */
  readyLine: RegExp;
  /** @default 15000 */
  timeoutMs?: number;
}

export class ChildProcess {
  readonly #lines: string[] = [];
  readonly #listeners = new Set<(line: string) => void>();
  readonly #exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcessWithoutNullStreams,
  ) {
    running.add(child);
    this.#exited = new Promise((resolve) => {
      child.on("exit", (code, signal) => {
        running.delete(child);
        resolve({ code, signal });
      });
    });
    let partial = { stdout: "", stderr: "" };
    for (const stream of ["stdout", "stderr"] as const) {
      child[stream].on("data", (chunk: Buffer) => {
        const text = partial[stream] + chunk.toString();
        const lines = text.split("\n");
        partial = { ...partial, [stream]: lines.pop() ?? "" };
        for (const line of lines) this.#onLine(line);
      });
    }
  }

  #onLine(line: string): void {
    this.#lines.push(line);
    if (this.#lines.length > KEPT_LINES) this.#lines.shift();
    for (const listener of this.#listeners) listener(line);
  }

  static async spawn(
    name: string,
    command: string,
    args: string[],
    options: SpawnOptions,
  ): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
    const process_ = spawn(command, args, { env: { ...process.env, ...options.env }, stdio: "pipe" });
    const child = new ChildProcess(name, process_);
    try {
      const match = await child.waitForLine(options.readyLine, options.timeoutMs ?? 15_000);
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

  /** Sends the signal and resolves once the process has exited. */
  async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    if (!this.running) return;
    if (signal === "SIGTERM") {
      const force = setTimeout(() => this.child.kill("SIGKILL"), 5000);
      this.child.kill(signal);
      await this.#exited;
      clearTimeout(force);
      return;
    }
    this.child.kill(signal);
    await this.#exited;
  }

  waitExit(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return this.#exited;
  }
}
