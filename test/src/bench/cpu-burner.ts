// Plain CPU load on the benchmark machine: child processes that each spin for
// part of every few milliseconds, together taking a given number of cores.
// The rebalance benchmark runs it beside its paced foreground at the cores a
// move took, which tells how much of the move's cost to the foreground's
// latency any work of that much CPU would have on these cores.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { cpuByPid, cpuUsedBetween } from "./process-cpu.js";

/** How often each burner spins; short, like a move's batches, so the load is spread rather than in bursts. */
const PERIOD_MS = 5;

/**
 * Takes `argv[1]` of a core: every PERIOD_MS it spins until the process's own
 * CPU time (its wake-ups included) has caught up with that share of the time
 * since it began, so what it takes is what was asked, evenly; a burner
 * descheduled for a while catches up a period at a time, not all at once.
 */
const SPINNER = `
const share = Number(process.argv[1]);
const periodMs = Number(process.argv[2]);
const cpuMs = () => { const { user, system } = process.cpuUsage(); return (user + system) / 1000; };
const startedAt = performance.now();
const cpuAtStart = cpuMs();
function tick() {
  const spinUntil = performance.now() + periodMs * share;
  while (cpuMs() - cpuAtStart < (performance.now() - startedAt) * share && performance.now() < spinUntil) {}
  setTimeout(tick, periodMs * (1 - share));
}
setTimeout(tick, Math.random() * periodMs);
process.stdout.write("spinning");
`;

export class CpuBurner {
  readonly #children: ChildProcess[];
  readonly #cpuAtStart: Map<number, number>;
  readonly #startedAt: number;

  private constructor(children: ChildProcess[]) {
    this.#children = children;
    this.#cpuAtStart = cpuByPid(this.#pids());
    this.#startedAt = performance.now();
  }

  /** Starts `processes` burners taking `cores` between them (at most one each). */
  static async start(cores: number, processes: number): Promise<CpuBurner> {
    const share = Math.min(cores / processes, 1).toFixed(4);
    // None for no load: three burners' wake-ups alone took a tenth of a core here.
    const children = Array.from({ length: cores > 0 ? processes : 0 }, () =>
      spawn(process.execPath, ["-e", SPINNER, share, String(PERIOD_MS)], {
        stdio: ["ignore", "pipe", "ignore"],
      }),
    );
    // Measured from when each has started spinning, not from Node's own start-up.
    await Promise.all(
      children.map((child) =>
        Promise.race([
          once(child.stdout!, "data"),
          once(child, "exit").then(([code]) => {
            throw new Error(`a CPU burner exited with code ${code} before it started spinning`);
          }),
        ]),
      ),
    );
    return new CpuBurner(children);
  }

  /** Stops the burners; the cores they took since they started, as measured. */
  async stop(): Promise<number> {
    const micros = cpuUsedBetween(this.#cpuAtStart, cpuByPid(this.#pids()));
    const wallMs = performance.now() - this.#startedAt;
    await Promise.all(
      this.#children
        .filter((child) => child.exitCode === null && child.signalCode === null)
        .map((child) => {
          const exited = once(child, "exit");
          child.kill("SIGKILL");
          return exited;
        }),
    );
    return micros / (wallMs * 1000);
  }

  #pids(): number[] {
    return this.#children.flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
  }
}
