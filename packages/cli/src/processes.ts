// Child processes started by `binring dev`: redis-servers and binring
// backends, each waited on until it serves, and all stopped together.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Logger } from "pino";
import { CliError } from "./cli-error.js";

/** The `binring` entry point, for starting sibling processes. */
export const CLI_MAIN = fileURLToPath(new URL("./main.js", import.meta.url));

const START_TIMEOUT_MS = 15_000;

export function hasRedisServer(): boolean {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export interface Child {
  name: string;
  process: ChildProcess;
  /** The first output line that matched the ready pattern. */
  readyLine: string;
}

/** Spawns a process and resolves once a line of its output matches `ready`. */
export function startChild(
  name: string,
  command: string,
  args: string[],
  ready: RegExp,
  logger: Logger,
  /** Every line of output is appended here. */
  logFile?: string,
): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    if (logFile) {
      mkdirSync(dirname(logFile), { recursive: true });
      const log = createWriteStream(logFile, { flags: "a" });
      child.stdout.pipe(log);
      child.stderr.pipe(log);
    }
    let tail = "";
    let done = false;
    const timer = setTimeout(
      () => finish(new CliError(`${name} did not start within ${START_TIMEOUT_MS} ms: ${tail}`, 1)),
      START_TIMEOUT_MS,
    );
    const finish = (error?: Error, line?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (error) {
        child.kill("SIGKILL");
        reject(error);
      } else resolve({ name, process: child, readyLine: line ?? "" });
    };
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-2000);
      for (const line of text.split("\n")) if (ready.test(line)) finish(undefined, line);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", (error) => finish(new CliError(`${name} could not start: ${error.message}`, 1)));
    child.on("exit", (code, signal) => {
      if (!done) finish(new CliError(`${name} exited (${signal ?? code}) before serving: ${tail.trim()}`, 1));
      else logger.info({ child: name, code, signal }, "child process exited");
    });
  });
}

/** Redis's fsync policy for its append-only file: "always" syncs every write (power-loss safe), "everysec" once a second. */
export type Appendfsync = "always" | "everysec";

/** A redis-server with an append-only file synced as `appendfsync` says, and no RDB snapshots. */
export function startRedis(
  name: string,
  port: number,
  dir: string,
  appendfsync: Appendfsync,
  logger: Logger,
  logFile?: string,
): Promise<Child> {
  mkdirSync(dir, { recursive: true });
  return startChild(
    name,
    "redis-server",
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--dir",
      dir,
      "--appendonly",
      "yes",
      "--appendfsync",
      appendfsync,
      "--save",
      "",
    ],
    /Ready to accept connections/,
    logger,
    logFile,
  );
}

/** Stops children with SIGTERM, then SIGKILL for any still running after a grace period. */
export async function stopAll(children: readonly Child[], graceMs = 5000): Promise<void> {
  await Promise.all(
    children.map(
      ({ process: child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const force = setTimeout(() => child.kill("SIGKILL"), graceMs);
          child.once("exit", () => {
            clearTimeout(force);
            resolve();
          });
          child.kill("SIGTERM");
        }),
    ),
  );
}
