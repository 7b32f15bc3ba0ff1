// One chaos run: the workload runs for the given duration while faults are
// injected on a schedule that stays inside the failure model; then every
// fault is healed, the run waits until the keepers report every backend ready
// with no repair pending, and a fresh client reads the final state. Everything
// goes to one history file for the checkers.
//
// Without a ClusterControl (a cluster this process does not own) the run
// injects nothing itself: it runs the workload while the operator breaks
// things, then waits for the cluster to heal and reads the final state.
import { join } from "node:path";
import type { BinClientOptions } from "@binring/client";
import type { TlsFiles } from "@binring/core";
import { type Logger, pino } from "pino";
import type { BackendKill, ClusterControl } from "./cluster-control.js";
import { nextFault, type PlannedFault } from "./fault-schedule.js";
import { readFinalState } from "./final-reads.js";
import { type FuzzCounts, Fuzzer } from "./fuzzer.js";
import { type FaultAction, HistoryWriter } from "./history.js";
import { type ClusterHealth, isReady, isSettled, readClusterHealth } from "./keeper-status.js";
import { Random } from "./random.js";
import { Workload, type WorkloadCounts, type WorkloadKeys } from "./workload.js";

export interface ChaosOptions {
  backends: string[];
  keepers: string[];
  /** The cluster's processes, when this run owns them; without it no fault is injected. */
  control?: ClusterControl;
  /** How long the workload runs (faults stop at the end). */
  durationMs: number;
  /** Mean time between faults. @default 5000 */
  faultEveryMs?: number;
  seed: number;
  /** Where history.jsonl is written. */
  outDir: string;
  /** @default 16 */
  processes?: number;
  /** @default 4 bins ("b0".."b3") with string keys k0..k3 and list keys l0..l3 */
  keys?: WorkloadKeys;
  /** Options for the workload's clients (deadlines; the test-only sabotage). */
  clientOptions?: Partial<BinClientOptions>;
  /** Longest wait for the cluster to be ready before the run and after healing. @default 120000 */
  settleTimeoutMs?: number;
  /** The client certificate every caller of the run presents (workload, fuzzer, status reads). @default plaintext */
  tls?: TlsFiles;
  /** Run a hostile caller (fuzzer.ts) against every backend while the workload runs. @default false */
  fuzz?: boolean;
  /** Called every few seconds while the run goes. */
  onProgress?: (progress: ChaosProgress) => void;
  /** @default a silent logger */
  logger?: Logger;
}

export interface ChaosProgress {
  phase: "waiting for a ready cluster" | "chaos" | "healing" | "final reads";
  elapsedMs: number;
  durationMs: number;
  counts: WorkloadCounts;
  faults: number;
  /** Calls the fuzzer made, when it runs. */
  fuzz?: FuzzCounts;
  /** Impaired processes, e.g. "backend-2 (killed)". */
  impaired: string[];
}

export interface ChaosResult {
  historyPath: string;
  counts: WorkloadCounts;
  faults: number;
  /** Calls the fuzzer made, when it ran. */
  fuzz?: FuzzCounts;
  /** From the end of the chaos phase until every backend was ready again. */
  healMs: number;
}

export const DEFAULT_KEYS: WorkloadKeys = {
  bins: ["b0", "b1", "b2", "b3"],
  stringKeys: ["k0", "k1", "k2", "k3"],
  listKeys: ["l0", "l1", "l2", "l3"],
};

const PROGRESS_EVERY_MS = 5000;
/** A restart that failed (a loaded machine can take longer than the start timeout) is tried again after this. */
const RECOVERY_RETRY_MS = 1000;
const HEALTH_POLL_MS = 200;
const CRASH_CHECK_MS = 1000;

type Down = "killed" | "paused";

export class ChaosRun {
  readonly #options: ChaosOptions;
  readonly #logger: Logger;
  readonly #history: HistoryWriter;
  readonly #random: Random;
  readonly #workload: Workload;
  readonly #fuzzer: Fuzzer | undefined;
  readonly #backendDown = new Map<number, Down>();
  readonly #keeperDown = new Map<number, Down>();
  /** target name -> its scheduled recovery; run early by heal(). */
  readonly #recoveries = new Map<string, { timer: NodeJS.Timeout; recover: () => Promise<void> }>();
  readonly #inFlight = new Set<Promise<void>>();
  #faults = 0;
  /** Set once the chaos phase is over: recoveries are then heal()'s job. */
  #healing = false;
  #phase: ChaosProgress["phase"] = "waiting for a ready cluster";
  #chaosStartedAt = 0;
  #lastHealth: ClusterHealth | undefined;

  constructor(options: ChaosOptions) {
    this.#options = options;
    this.#logger = options.logger ?? pino({ level: "silent" });
    this.#history = new HistoryWriter(join(options.outDir, "history.jsonl"));
    this.#random = Random.seeded(options.seed);
    this.#workload = new Workload({
      backends: options.backends,
      keepers: options.keepers,
      keys: options.keys ?? DEFAULT_KEYS,
      processes: options.processes,
      clientOptions: { ...options.clientOptions, tls: options.tls },
      random: this.#random.split(),
      history: this.#history,
    });
    // Split last, so the workload's and the schedule's streams stay those of a run without it.
    this.#fuzzer = options.fuzz
      ? new Fuzzer({ backends: options.backends, random: this.#random.split(), tls: options.tls })
      : undefined;
  }

  async run(): Promise<ChaosResult> {
    const options = this.#options;
    const progress = setInterval(() => this.#reportProgress(), PROGRESS_EVERY_MS);
    try {
      this.#history.write({
        type: "meta",
        seed: options.seed,
        started: new Date().toISOString(),
        processes: options.processes ?? 16,
        config: {
          backends: options.backends,
          keepers: options.keepers,
          durationMs: options.durationMs,
          faultEveryMs: options.faultEveryMs ?? 5000,
          faults: options.control ? "injected" : "none (cluster not owned)",
          keys: options.keys ?? DEFAULT_KEYS,
          sabotage: options.clientOptions?.unsafeSabotage ?? null,
          fuzz: options.fuzz ?? false,
        },
      });
      await this.#waitUntilSettled("the cluster to be ready before the run");
      this.#phase = "chaos";
      this.#chaosStartedAt = performance.now();
      this.#workload.start();
      this.#fuzzer?.start();
      await this.#injectFaults();
      this.#phase = "healing";
      const healStartedAt = performance.now();
      await Promise.all([this.#workload.stop(), this.#fuzzer?.stop(), this.#heal()]);
      await this.#waitUntilSettled("every backend to be ready after healing");
      const healMs = Math.round(performance.now() - healStartedAt);
      this.#phase = "final reads";
      await readFinalState(options, options.keys ?? DEFAULT_KEYS, this.#history);
      return {
        historyPath: this.#history.path,
        counts: this.#workload.counts,
        faults: this.#faults,
        fuzz: this.#fuzzer?.counts,
        healMs,
      };
    } finally {
      clearInterval(progress);
      for (const { timer } of this.#recoveries.values()) clearTimeout(timer);
      // Already stopped on success; after a failure the clients must not outlive the run.
      await this.#workload.stop();
      await this.#fuzzer?.stop();
      await this.#history.close();
    }
  }

  /** Until the duration is over: every faultEveryMs, the next fault the schedule allows. */
  async #injectFaults(): Promise<void> {
    const { control, durationMs } = this.#options;
    const faultEveryMs = this.#options.faultEveryMs ?? 5000;
    const endAt = this.#chaosStartedAt + durationMs;
    const scheduleRandom = this.#random.split();
    // The first fault waits one interval, so the history starts with a healthy cluster.
    let nextAt = this.#chaosStartedAt + faultEveryMs;
    if (!control) {
      await sleep(endAt - performance.now());
      return;
    }
    while (performance.now() < endAt) {
      // Short naps, so a crashed process fails the run within a second whatever the fault interval.
      await sleep(
        Math.max(0, Math.min(nextAt, endAt, performance.now() + CRASH_CHECK_MS) - performance.now()),
      );
      this.#failOnCrash();
      if (performance.now() >= endAt) break;
      if (performance.now() < nextAt) continue;
      // A paused keeper would only make the status call wait for its deadline.
      const up = control.keepers.filter((_, i) => !this.#keeperDown.has(i));
      const health = await readClusterHealth(up, this.#options.tls);
      this.#lastHealth = health;
      const impairedBackends = new Set(
        control.backends.flatMap((address, i) =>
          this.#backendDown.has(i) || !isReady(health, address) ? [i] : [],
        ),
      );
      const fault = nextFault(
        {
          backends: control.backends.length,
          keepers: control.keepers.length,
          impairedBackends,
          impairedKeepers: new Set(
            control.keepers.flatMap((address, i) =>
              this.#keeperDown.has(i) || !health.caughtUp.includes(address) ? [i] : [],
            ),
          ),
          settled: isSettled(health, control.backends, this.#downAddresses()),
        },
        scheduleRandom,
        { faultEveryMs },
      );
      if (fault) {
        await this.#inject(control, fault);
        nextAt = performance.now() + faultEveryMs;
      } else {
        // Nothing fits the model yet (a repair is running): look again soon.
        nextAt = performance.now() + HEALTH_POLL_MS * 5;
      }
    }
  }

  async #inject(control: ClusterControl, fault: PlannedFault): Promise<void> {
    switch (fault.action) {
      case "kill-backend":
        await Promise.all(
          fault.targets.map(async (target, i) => {
            const how = fault.how[i]!;
            this.#backendDown.set(target, "killed");
            await control.killBackend(target, how);
            this.#fault("kill-backend", `backend-${target}`, KILL_DETAIL[how]);
            this.#schedule(`backend-${target}`, fault.downMs[i]!, async () => {
              await control.restartBackend(target);
              this.#backendDown.delete(target);
              this.#fault("restart-backend", `backend-${target}`, "not ready until a keeper fills it");
            });
          }),
        );
        return;
      case "pause-backend":
        this.#pause(control, "backend", fault.target, fault.pauseMs);
        return;
      case "kill-keeper":
        this.#keeperDown.set(fault.target, "killed");
        await control.killKeeper(fault.target);
        this.#fault("kill-keeper", `keeper-${fault.target}`, `SIGKILL, back in ${fault.downMs} ms`);
        this.#schedule(`keeper-${fault.target}`, fault.downMs, async () => {
          await control.restartKeeper(fault.target);
          this.#keeperDown.delete(fault.target);
          this.#fault("restart-keeper", `keeper-${fault.target}`);
        });
        return;
      case "pause-keeper":
        this.#pause(control, "keeper", fault.target, fault.pauseMs);
        return;
    }
  }

  /** SIGSTOP now, SIGCONT after `pauseMs` (or at heal). */
  #pause(control: ClusterControl, kind: "backend" | "keeper", target: number, pauseMs: number): void {
    const down = kind === "backend" ? this.#backendDown : this.#keeperDown;
    const name = `${kind}-${target}`;
    down.set(target, "paused");
    control.pause(kind, target);
    this.#fault("pause", name, `SIGSTOP for ${pauseMs} ms`);
    this.#schedule(name, pauseMs, async () => {
      control.resume(kind, target);
      down.delete(target);
      this.#fault("resume", name, "SIGCONT");
    });
  }

  /** Runs `recover` after `ms`, or at once when heal() comes first. */
  #schedule(target: string, ms: number, recover: () => Promise<void>): void {
    this.#recoveries.set(target, { timer: setTimeout(() => this.#recover(target), ms), recover });
  }

  #recover(target: string): void {
    const entry = this.#recoveries.get(target);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.#recoveries.delete(target);
    const done = entry.recover().catch((error: unknown) => {
      // Still in the down maps, so still impaired: try again soon (after the run, heal() does).
      this.#logger.error({ target, err: error }, "recovery failed; retrying");
      if (!this.#healing) this.#schedule(target, RECOVERY_RETRY_MS, entry.recover);
    });
    this.#inFlight.add(done);
    void done.finally(() => this.#inFlight.delete(done));
  }

  /** Brings back everything still down: runs every scheduled recovery now, then retries any that failed. */
  async #heal(): Promise<void> {
    const control = this.#options.control;
    if (!control) return;
    this.#healing = true;
    this.#fault("heal", "cluster", "faults stop; everything down is brought back");
    for (const target of [...this.#recoveries.keys()]) this.#recover(target);
    await Promise.all(this.#inFlight);
    for (const [index, down] of [...this.#backendDown]) {
      if (down === "paused") control.resume("backend", index);
      else await control.restartBackend(index);
      this.#backendDown.delete(index);
      this.#fault(down === "paused" ? "resume" : "restart-backend", `backend-${index}`, "heal");
    }
    for (const [index, down] of [...this.#keeperDown]) {
      if (down === "paused") control.resume("keeper", index);
      else await control.restartKeeper(index);
      this.#keeperDown.delete(index);
      this.#fault(down === "paused" ? "resume" : "restart-keeper", `keeper-${index}`, "heal");
    }
  }

  /** A process that died on its own is a bug the run must report, not a fault to heal around. */
  #failOnCrash(): void {
    const exits = this.#options.control?.unexpectedExits() ?? [];
    if (exits.length === 0) return;
    for (const exit of exits) this.#logger.error({ exit }, "process exited without being killed");
    throw new Error(`the run fails: ${exits.join("; ")}`);
  }

  #downAddresses(): Set<string> {
    const backends = this.#options.control?.backends ?? [];
    return new Set([...this.#backendDown.keys()].map((i) => backends[i]!));
  }

  async #waitUntilSettled(what: string): Promise<void> {
    const timeoutMs = this.#options.settleTimeoutMs ?? 120_000;
    const deadline = performance.now() + timeoutMs;
    const { backends, keepers } = this.#options;
    if (keepers.length === 0) return;
    for (;;) {
      this.#failOnCrash();
      const health = await readClusterHealth(keepers, this.#options.tls);
      this.#lastHealth = health;
      if (isSettled(health, backends, new Set())) return;
      if (performance.now() > deadline) {
        const states = backends.map(
          (address) => `${address} ${health.states.get(address)?.join("/") ?? "?"}`,
        );
        throw new Error(
          `timed out after ${timeoutMs} ms waiting for ${what}: ${states.join(", ")}; repairs pending ${health.repairsPending}; keepers answering ${health.keepers.length}/${keepers.length}`,
        );
      }
      await sleep(HEALTH_POLL_MS);
    }
  }

  #fault(action: FaultAction, target: string, detail?: string): void {
    if (!RECOVERIES.has(action)) this.#faults++;
    const time = this.#history.now();
    this.#history.write({ type: "fault", time, action, target, ...(detail ? { detail } : {}) });
    this.#logger.info({ time, action, target, detail }, "fault");
  }

  #reportProgress(): void {
    const backends = this.#options.backends;
    const impaired = [
      ...[...this.#backendDown].map(([i, down]) => `backend-${i} (${down})`),
      ...[...this.#keeperDown].map(([i, down]) => `keeper-${i} (${down})`),
      ...backends.flatMap((address, i) =>
        !this.#backendDown.has(i) && this.#lastHealth && !isReady(this.#lastHealth, address)
          ? [`backend-${i} (${this.#lastHealth.states.get(address)?.join("/") ?? "unknown"})`]
          : [],
      ),
    ];
    this.#options.onProgress?.({
      phase: this.#phase,
      elapsedMs: this.#chaosStartedAt === 0 ? 0 : Math.round(performance.now() - this.#chaosStartedAt),
      durationMs: this.#options.durationMs,
      counts: { ...this.#workload.counts },
      faults: this.#faults,
      fuzz: this.#fuzzer && { ...this.#fuzzer.counts },
      impaired,
    });
  }
}

/** Actions that undo a fault rather than inject one. */
const RECOVERIES: ReadonlySet<FaultAction> = new Set(["restart-backend", "restart-keeper", "resume", "heal"]);

const KILL_DETAIL: Record<BackendKill, string> = {
  backend: "SIGKILL backend only: its redis-server keeps running, it returns stale",
  "with-redis": "SIGKILL backend and redis-server: Redis restarts from its append-only file, stale",
  wipe: "SIGKILL backend and redis-server, Redis files deleted: it returns empty",
  redis: "SIGKILL redis-server only, its files deleted: the backend runs on and finds it empty",
};

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
