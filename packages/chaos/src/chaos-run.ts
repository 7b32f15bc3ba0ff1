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
import { setTimeout as sleep } from "node:timers/promises";
import { destination, type Logger, pino } from "pino";
import { type ChaosOptions, type ChaosProgress, type ChaosResult, DEFAULT_KEYS } from "./chaos-options.js";
import { nextFault, type PlannedFault } from "./fault-schedule.js";
import { readFinalState } from "./final-reads.js";
import { Fuzzer } from "./fuzzer.js";
import { type FaultAction, HistoryWriter } from "./history.js";
import {
  type ClusterHealth,
  isReady,
  isSettled,
  readClusterHealth,
  waitUntilSettled,
} from "./keeper-status.js";
import { MembershipFaults } from "./membership-faults.js";
import type { NetworkNode } from "./network-control.js";
import { NetworkFaults } from "./network-faults.js";
import type { FaultKind } from "./network-schedule.js";
import { ProcessFaults } from "./process-faults.js";
import { Random } from "./random.js";
import { Recoveries } from "./recoveries.js";
import { Workload } from "./workload.js";

const PROGRESS_EVERY_MS = 5000;
const HEALTH_POLL_MS = 200;
const CRASH_CHECK_MS = 1000;

export class ChaosRun {
  readonly #options: ChaosOptions;
  readonly #logger: Logger;
  readonly #history: HistoryWriter;
  readonly #random: Random;
  readonly #workload: Workload;
  readonly #fuzzer: Fuzzer | undefined;
  readonly #recoveries: Recoveries;
  /** Set when the run owns its cluster. */
  readonly #processes: ProcessFaults | undefined;
  /** Set when the run injects network faults. */
  readonly #network: NetworkFaults | undefined;
  /** Set when the run adds and removes backends. */
  readonly #membership: MembershipFaults | undefined;
  #faults = 0;
  #phase: ChaosProgress["phase"] = "waiting for a ready cluster";
  #chaosStartedAt = 0;
  #lastHealth: ClusterHealth | undefined;
  /** Aborted by endEarly(): the chaos phase is over, whatever is left of its duration. */
  readonly #ended = new AbortController();

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
      // Beside the history: a failed check is read against what each client saw of the backends.
      clientLogger: pino(
        { level: "info", base: { component: "client" } },
        destination({ dest: join(options.outDir, "clients.log"), sync: true }),
      ),
      random: this.#random.split(),
      history: this.#history,
    });
    // Split last, so the workload's and the schedule's streams stay those of a run without it.
    this.#fuzzer = options.fuzz
      ? new Fuzzer({ backends: options.backends, random: this.#random.split(), tls: options.tls })
      : undefined;
    this.#recoveries = new Recoveries(this.#logger);
    const { control } = options;
    const record = this.#fault.bind(this);
    this.#processes = control && new ProcessFaults(control, this.#recoveries, record);
    const kinds = options.faults ?? new Set<FaultKind>(["process"]);
    if (control && (kinds.has("network") || kinds.has("keeper-partition"))) {
      if (!control.network)
        throw new Error("network faults need a cluster whose processes have namespaces of their own");
      const nodes: NetworkNode[] = [
        "clients",
        ...control.backends.map((_, i): NetworkNode => `backend-${i}`),
        ...control.keepers.map((_, i): NetworkNode => `keeper-${i}`),
      ];
      this.#network = new NetworkFaults(control.network, nodes, record);
    }
    this.#membership = control && kinds.has("membership") ? new MembershipFaults(control, record) : undefined;
  }

  /**
   * Ends the chaos phase now, as if its duration were over: faults stop and are
   * healed, the workload stops, and the run reads the final state as usual.
   */
  endEarly(): void {
    this.#ended.abort();
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
          faults: options.control ? [...(options.faults ?? ["process"])] : "none (cluster not owned)",
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
      await this.#retireLeaving();
      const healMs = Math.round(performance.now() - healStartedAt);
      this.#phase = "final reads";
      await readFinalState(options, options.keys ?? DEFAULT_KEYS, this.#history);
      return {
        historyPath: this.#history.path,
        counts: this.#workload.counts,
        faults: this.#faults,
        networkFaults: this.#network?.count ?? 0,
        fuzz: this.#fuzzer?.counts,
        healMs,
      };
    } finally {
      clearInterval(progress);
      this.#recoveries.cancel();
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
    const { signal } = this.#ended;
    const over = () => signal.aborted || performance.now() >= endAt;
    const nap = (ms: number) => sleep(Math.max(0, ms), undefined, { signal }).catch(() => undefined);
    if (!control) {
      await nap(endAt - performance.now());
      return;
    }
    while (!over()) {
      // Short naps, so a crashed process fails the run within a second whatever the fault interval.
      await nap(Math.min(nextAt, endAt, performance.now() + CRASH_CHECK_MS) - performance.now());
      this.#failOnCrash();
      if (over()) break;
      if (performance.now() < nextAt) continue;
      // A paused or cut-off keeper would only make the status call wait for its deadline.
      const down = this.#downKeepers();
      const up = control.keepers.filter((_, i) => !down.has(i));
      const health = await readClusterHealth(up, this.#options.tls);
      this.#lastHealth = health;
      await this.#membership?.retireLeft(health);
      const retired = this.#membership?.retired ?? new Set<number>();
      const impairedBackends = new Set([
        ...this.#impairedBackends(),
        ...control.backends.flatMap((address, i) => (retired.has(i) || isReady(health, address) ? [] : [i])),
      ]);
      const members = control.backends.filter((_, i) => !retired.has(i));
      const fault = nextFault(
        {
          backends: control.backends.length,
          maxBackends: control.maxBackends,
          retired,
          keepers: control.keepers.length,
          impairedBackends,
          impairedKeepers: new Set(
            control.keepers.flatMap((address, i) =>
              down.has(i) || !health.caughtUp.includes(address) ? [i] : [],
            ),
          ),
          // A keeper back from a partition may still be spreading stale verdicts (network-schedule.ts).
          settled: isSettled(health, members, this.#downAddresses()) && !this.#network?.holdsBackendFaults(),
          kinds: this.#options.faults,
          inMemory: !control.usesRedis,
          injected: new Set([...(this.#network?.injected ?? []), ...(this.#membership?.injected ?? [])]),
        },
        scheduleRandom,
        { faultEveryMs },
      );
      if (fault) {
        await this.#inject(fault);
        nextAt = performance.now() + faultEveryMs;
      } else {
        // Nothing fits the model yet (a repair is running): look again soon.
        nextAt = performance.now() + HEALTH_POLL_MS * 5;
      }
    }
  }

  async #inject(fault: PlannedFault): Promise<void> {
    switch (fault.action) {
      case "kill-backend":
      case "pause-backend":
      case "kill-keeper":
      case "pause-keeper":
        await this.#processes?.inject(fault);
        return;
      case "add-backend":
      case "remove-backend":
        await this.#membership?.inject(fault);
        return;
      default: {
        const network = this.#network;
        if (!network) return;
        const key = await network.inject(fault);
        this.#recoveries.schedule(key, fault.downMs, () => network.heal(key));
      }
    }
  }

  /** Brings back everything still down: runs every scheduled recovery now, then heals what failed. */
  async #heal(): Promise<void> {
    if (!this.#processes) return;
    this.#fault("heal", "cluster", "faults stop; everything down is brought back");
    await this.#recoveries.runAll();
    await this.#network?.healAll();
    await this.#processes.healAll();
  }

  /** Waits for every backend still leaving to leave the ring, and stops it: a decommission ends like the others. */
  async #retireLeaving(): Promise<void> {
    const membership = this.#membership;
    if (!membership) return;
    const deadline = performance.now() + (this.#options.settleTimeoutMs ?? 120_000);
    while (membership.leaving.size > 0) {
      this.#failOnCrash();
      await membership.retireLeft(await readClusterHealth(this.#options.keepers, this.#options.tls));
      if (membership.leaving.size === 0) return;
      if (performance.now() > deadline) {
        throw new Error(`timed out waiting for ${membership.describe().join(", ")} to leave the ring`);
      }
      await sleep(HEALTH_POLL_MS);
    }
  }

  /** A process that died on its own is a bug the run must report, not a fault to heal around. */
  #failOnCrash(): void {
    const exits = this.#options.control?.unexpectedExits() ?? [];
    if (exits.length === 0) return;
    for (const exit of exits) this.#logger.error({ exit }, "process exited without being killed");
    throw new Error(`the run fails: ${exits.join("; ")}`);
  }

  /** Backends killed, paused or cut off from the keepers: each must be declared dead before the cluster is settled. */
  #downAddresses(): Set<string> {
    const backends = this.#options.control?.backends ?? [];
    // A leaving backend too: declared dead and repaired before the cluster counts as settled.
    const down = [
      ...(this.#processes?.backendDown.keys() ?? []),
      ...(this.#network?.cutOffBackends() ?? []),
      ...(this.#membership?.leaving ?? []),
    ];
    return new Set(down.map((i) => backends[i]!));
  }

  /** Backends a fault in force impairs (not counting those back but not ready yet). */
  #impairedBackends(): Set<number> {
    return new Set([
      ...(this.#processes?.backendDown.keys() ?? []),
      ...(this.#network?.impairedBackends() ?? []),
      ...(this.#membership?.leaving ?? []),
    ]);
  }

  /** Keepers killed, paused or partitioned: the status reads skip them. */
  #downKeepers(): Set<number> {
    return new Set([
      ...(this.#processes?.keeperDown.keys() ?? []),
      ...(this.#network?.impairedKeepers() ?? []),
    ]);
  }

  #waitUntilSettled(what: string): Promise<void> {
    const { keepers, tls, backends, settleTimeoutMs } = this.#options;
    return waitUntilSettled({
      keepers,
      tls,
      fileBackends: backends,
      timeoutMs: settleTimeoutMs ?? 120_000,
      pollMs: HEALTH_POLL_MS,
      what,
      beforeEachRead: () => this.#failOnCrash(),
      read: (health) => {
        this.#lastHealth = health;
      },
    });
  }

  #fault(action: FaultAction, target: string, detail?: string): void {
    if (!RECOVERIES.has(action)) this.#faults++;
    const time = this.#history.now();
    this.#history.write({ type: "fault", time, action, target, ...(detail ? { detail } : {}) });
    this.#logger.info({ time, action, target, detail }, "fault");
  }

  #reportProgress(): void {
    const impaired = this.#impairedBackends();
    const health = this.#lastHealth;
    const { control } = this.#options;
    // Attached to a cluster it does not own: the members the keepers list, which change as it runs.
    const backends = control?.backends ?? (health ? [...health.states.keys()] : this.#options.backends);
    const name = (address: string, i: number) => (control ? `backend-${i}` : address);
    this.#options.onProgress?.({
      phase: this.#phase,
      elapsedMs: this.#chaosStartedAt === 0 ? 0 : Math.round(performance.now() - this.#chaosStartedAt),
      durationMs: this.#options.durationMs,
      counts: { ...this.#workload.counts },
      faults: this.#faults,
      networkFaults: this.#network?.count ?? 0,
      fuzz: this.#fuzzer && { ...this.#fuzzer.counts },
      impaired: [
        ...(this.#processes?.describe() ?? []),
        ...(this.#network?.describe() ?? []),
        ...(this.#membership?.describe() ?? []),
        ...backends.flatMap((address, i) =>
          !impaired.has(i) && !this.#membership?.retired.has(i) && health && !isReady(health, address)
            ? [`${name(address, i)} (${health.states.get(address)?.join("/") ?? "unknown"})`]
            : [],
        ),
      ],
    });
  }
}

/** Actions that undo a fault rather than inject one. */
const RECOVERIES: ReadonlySet<FaultAction> = new Set([
  "restart-backend",
  "restart-keeper",
  "resume",
  "reconnect",
  "heal",
]);
