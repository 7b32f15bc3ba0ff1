// Client processes for the throughput benchmark: N forked load workers on one
// system, all started on the same cell at once; their histograms are merged
// and their completed operations added up.
import { type ChildProcess, fork } from "node:child_process";
import * as hdr from "hdr-histogram-js";
import type { RunReply, RunRequest } from "./load-worker.js";
import { type Measurement, newHistogram, summarise } from "./measure.js";
import type { SystemSpec } from "./systems.js";
import type { WorkloadName } from "./workloads.js";

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

/** How long warmUp() loads a workload unless told otherwise. */
export const WARM_UP_MS = 3000;

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
   * Unmeasured load: fresh processes (the client's and the system's) run cold
   * (JIT) for their first seconds. Measured cold, 6 binring backends came out at
   * half of what they do once warm.
   */
  async warmUp(workload: WorkloadName, concurrency: number, durationMs = WARM_UP_MS): Promise<void> {
    await this.run({ workload, concurrency, durationMs, warmupMs: 0 });
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
