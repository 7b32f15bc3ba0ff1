// Client processes for the throughput benchmark: N forked load workers on one
// system, all started on the same cell at once; their histograms are merged
// and their completed operations added up.

import { type ChildProcess, fork } from "node:child_process";
import { type Measurement, newHistogram, summarise, type WorkloadName } from "@binring/load";
import * as hdr from "hdr-histogram-js";
import type { RunReply, RunRequest } from "./load-worker.js";

import type { SystemSpec } from "./systems.js";

const WORKER = new URL("./load-worker.js", import.meta.url);

const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

function nextMessage<T>(child: ChildProcess, type: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
    };
    const onMessage = (message: { type: string }) => {
      if (message.type !== type) return;
      done();
      resolve(message as T);
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`load process exited (${code}) before sending ${type}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`load process sent no ${type} within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on("message", onMessage);
    child.on("exit", onExit);
  });
}

/** Length of one warm-up window. */
const WARM_UP_WINDOW_MS = 1000;
/** The warm-up ends after this many windows in a row that do not beat the best one by WARM_UP_GAIN. */
const WARM_UP_PATIENCE = 3;
const WARM_UP_GAIN = 1.05;
/** Longest warm-up of one workload. */
const WARM_UP_MAX_MS = 30_000;

/**
 * Runs `window` (a load for the given milliseconds, returning its throughput)
 * until WARM_UP_RULE says the processes are warm; returns how long it took.
 */
export async function warmUntilSteady(
  window: (windowMs: number) => Promise<number>,
  maxMs = WARM_UP_MAX_MS,
): Promise<number> {
  const started = performance.now();
  let best = 0;
  let flatWindows = 0;
  while (flatWindows < WARM_UP_PATIENCE && performance.now() - started < maxMs) {
    const opsPerSecond = await window(Math.min(WARM_UP_WINDOW_MS, maxMs));
    flatWindows = opsPerSecond > best * WARM_UP_GAIN ? 0 : flatWindows + 1;
    best = Math.max(best, opsPerSecond);
  }
  return performance.now() - started;
}

/** What warmUp() does, for the benchmarks' descriptions. */
export const WARM_UP_RULE = `runs unmeasured in ${WARM_UP_WINDOW_MS / 1000} s windows until ${WARM_UP_PATIENCE} in a row do not beat the best one by ${Math.round((WARM_UP_GAIN - 1) * 100)}% (${WARM_UP_MAX_MS / 1000} s at most), since fresh processes run cold`;

export class LoadProcesses {
  private constructor(private readonly children: ChildProcess[]) {}

  static async start(spec: SystemSpec, count: number): Promise<LoadProcesses> {
    const children = Array.from({ length: count }, () => {
      const child = fork(WORKER, [JSON.stringify(spec)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
      running.add(child);
      child.on("exit", () => running.delete(child));
      return child;
    });
    const processes = new LoadProcesses(children);
    try {
      await Promise.all(children.map((child) => nextMessage(child, "ready", 20_000)));
    } catch (error) {
      await processes.stop();
      throw error;
    }
    return processes;
  }

  get count(): number {
    return this.children.length;
  }

  get pids(): number[] {
    return this.children.map((child) => child.pid ?? -1).filter((pid) => pid > 0);
  }

  /** Runs the cell with `concurrency` operations in flight in total, split evenly over the processes. */
  async run(request: Omit<RunRequest, "type">): Promise<Measurement> {
    const share = Math.max(1, Math.round(request.concurrency / this.children.length));
    const timeoutMs = request.warmupMs + request.durationMs + 60_000;
    const replies = await Promise.all(
      this.children.map((child) => {
        const reply = nextMessage<RunReply>(child, "result", timeoutMs);
        child.send({ ...request, type: "run", concurrency: share } satisfies RunRequest);
        return reply;
      }),
    );
    const histogram = newHistogram();
    for (const reply of replies) {
      const part = hdr.decodeFromCompressedBase64(reply.histogram);
      histogram.add(part);
      part.destroy();
    }
    const measurement = summarise({
      histogram,
      completed: replies.reduce((sum, r) => sum + r.completed, 0),
      errors: replies.reduce((sum, r) => sum + r.errors, 0),
      durationMs: request.durationMs,
    });
    histogram.destroy();
    // Each process may have stretched its window: add up rates, not counts.
    return {
      ...measurement,
      opsPerSecond: replies.reduce((sum, r) => sum + r.completed / (r.durationMs / 1000), 0),
    };
  }

  /**
   * Unmeasured load until throughput stops rising (WARM_UP_RULE); returns how
   * long it took. Fresh processes (the client's and the system's) run cold:
   * binring's set throughput at c=64 doubled over its first 10-15 s of load
   * (2.2-2.6k sets/s in 800 ms windows after a fixed 3 s warm-up, 4.4-5.6k
   * after 10 s more), so a fixed warm-up measured it half cold.
   */
  warmUp(workload: WorkloadName, concurrency: number, maxMs = WARM_UP_MAX_MS): Promise<number> {
    return warmUntilSteady(
      async (windowMs) =>
        (await this.run({ workload, concurrency, durationMs: windowMs, warmupMs: 0 })).opsPerSecond,
      maxMs,
    );
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once("exit", resolve));
        const force = setTimeout(() => child.kill("SIGKILL"), 5000);
        if (child.connected) child.send({ type: "stop" });
        else child.kill("SIGKILL");
        await exited;
        clearTimeout(force);
      }),
    );
  }
}
