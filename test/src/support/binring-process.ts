// Starts `binring` subcommands as real child processes, the way operators do.
import { execFile, type ChildProcess as NodeChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freePort } from "@binring/launcher";
import { ChildProcess } from "./child.js";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const CLI_MAIN = `${REPO_ROOT}packages/cli/dist/main.js`;

export interface BackendProcessOptions {
  redisUrl?: string;
  keyPrefix?: string;
  /** host:port to listen on. @default a free port, chosen before the backend binds it (a restart binds it again) */
  listen?: string;
  ready?: boolean;
  extraArgs?: string[];
}

export interface BackendProcess {
  address: string;
  child: ChildProcess;
}

/** `binring backend`, resolved once it logs the address it listens on. */
export async function startBackendProcess(options: BackendProcessOptions = {}): Promise<BackendProcess> {
  const store = options.redisUrl ? ["--redis", options.redisUrl] : ["--store", "memory"];
  const args = [
    CLI_MAIN,
    "backend",
    "--listen",
    options.listen ?? `127.0.0.1:${await freePort()}`,
    ...store,
    ...(options.keyPrefix ? ["--key-prefix", options.keyPrefix] : []),
    ...(options.ready ? ["--ready"] : []),
    ...(options.extraArgs ?? []),
  ];
  const { child, match } = await ChildProcess.spawn("backend", process.execPath, args, {
    readyLine: /"address":"([^"]+)","incarnation"/,
    timeoutMs: 20_000,
  });
  return { address: match[1]!, child };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `binring ARGS...` to completion and returns its exit code and output. */
export function runCli(
  args: string[],
  options: { cwd?: string; timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<CliRun> {
  return startCli(args, options).finished;
}

/** `binring ARGS...` started: its process, to signal, and its exit code and output once it ends. */
export function startCli(
  args: string[],
  options: { cwd?: string; timeoutMs?: number; env?: Record<string, string> } = {},
): { child: NodeChildProcess; finished: Promise<CliRun> } {
  let child!: NodeChildProcess;
  const finished = new Promise<CliRun>((resolve) => {
    child = execFile(
      process.execPath,
      [CLI_MAIN, ...args],
      {
        cwd: options.cwd ?? REPO_ROOT,
        timeout: options.timeoutMs ?? 30_000,
        env: { ...process.env, ...options.env },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
  return { child, finished };
}
