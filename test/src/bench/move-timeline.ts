// A move second by second: the foreground's p99 and the cores each part of
// the cluster used, per window from the start of a change. The totals in the
// rebalance benchmark say what a move costs; this says when — the fill's
// first second, its steady state, the drops at its end — and which process
// was busy meanwhile, without a profiler.

import { newHistogram } from "@binring/load";
import { fmt, table } from "./measure.js";
import { cpuByPid } from "./process-cpu.js";
import type { CallObserver } from "./rebalance-foreground.js";

/** The processes of each part of the cluster (role name -> pids), asked anew at every window: processes come and go. */
export type Roles = () => Record<string, number[]>;

/** A last, partial window shorter than this is left out: a few 10-ms CPU ticks say nothing. */
const MIN_PARTIAL_WINDOW_MS = 200;

interface Window {
  /** Latencies of the calls due in the window, µs. */
  latencies: ReturnType<typeof newHistogram>;
  /** Cores each role used over the window. */
  cores: Record<string, number>;
}

export class MoveTimeline {
  readonly #windows: Window[] = [];
  readonly #timer: NodeJS.Timeout;
  /** CPU µs by pid at the last window boundary. */
  #lastCpu = new Map<number, number>();
  #lastAt: number;

  constructor(
    private readonly roles: Roles,
    private readonly startedAt: number,
    private readonly windowMs = 1000,
  ) {
    this.#lastAt = startedAt;
    this.#readCpu();
    this.#timer = setInterval(
      () => this.#closeWindow(Math.round((performance.now() - startedAt) / windowMs) - 1),
      windowMs,
    );
    this.#timer.unref();
  }

  /** What the foreground load reports each completed call to. */
  readonly observe: CallObserver = (dueAt, latencyMs) => {
    const index = Math.floor((dueAt - this.startedAt) / this.windowMs);
    if (index >= 0) this.#window(index).latencies.recordValue(Math.max(1, Math.round(latencyMs * 1000)));
  };

  /** Stops sampling; the window running now is counted up to here. */
  stop(): void {
    clearInterval(this.#timer);
    const now = performance.now();
    if (now - this.#lastAt >= MIN_PARTIAL_WINDOW_MS)
      this.#closeWindow(Math.floor((now - this.startedAt) / this.windowMs));
  }

  /**
   * One row per window: calls due in it, their p99, and the cores of each
   * role. Called once, after the load's last call: it frees the histograms.
   */
  markdown(): string {
    const roleNames = [...new Set(this.#windows.flatMap((w) => Object.keys(w.cores)))];
    const rows = this.#windows.map((window, i) => {
      const calls = window.latencies.totalCount;
      const p99Ms = window.latencies.getValueAtPercentile(99) / 1000;
      window.latencies.destroy();
      return [
        `${((i * this.windowMs) / 1000).toFixed(0)}–${(((i + 1) * this.windowMs) / 1000).toFixed(0)}`,
        calls,
        calls > 0 ? fmt.ms(p99Ms) : "–",
        ...roleNames.map((role) => (window.cores[role] === undefined ? "–" : window.cores[role]!.toFixed(2))),
      ];
    });
    return table(["seconds", "calls due", "p99 (ms)", ...roleNames.map((role) => `${role} (cores)`)], rows);
  }

  #window(index: number): Window {
    while (this.#windows.length <= index) this.#windows.push({ latencies: newHistogram(), cores: {} });
    return this.#windows[index]!;
  }

  #closeWindow(index: number): void {
    const now = performance.now();
    const before = this.#lastCpu;
    const elapsedMicros = (now - this.#lastAt) * 1000;
    this.#readCpu();
    this.#lastAt = now;
    if (index < 0) return;
    const window = this.#window(index);
    for (const [role, pids] of Object.entries(this.roles())) {
      let used = 0;
      for (const pid of pids) {
        const was = before.get(pid);
        const is = this.#lastCpu.get(pid);
        if (was !== undefined && is !== undefined) used += is - was;
      }
      window.cores[role] = used / elapsedMicros;
    }
  }

  #readCpu(): void {
    this.#lastCpu = cpuByPid(Object.values(this.roles()).flat());
  }
}
