// A keeper's Prometheus metrics, served at HTTP GET /metrics (status-server.ts).
// One Registry per Keeper, never prom-client's global one: tests run many
// keepers in one process, and each must expose only its own series. Gauges are
// read from the keeper when scraped; counters move through the narrow hooks
// below (ProbeCounters, RepairCounters), one call per event, so the probing and
// repair code knows nothing of Prometheus.
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { HealthState } from "./backend-health.js";
import type { RepairJob, RunningRepair } from "./repair-job.js";

/** Every state a backend can be in, one series each in binring_keeper_backend_state. */
export const HEALTH_STATES: readonly HealthState[] = ["unknown", "ready", "suspect", "filling", "dead"];

/** Repairs take seconds to many minutes. */
const REPAIR_SECONDS_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];

export type RepairKind = RepairJob["kind"];

/** What the prober reports. */
export interface ProbeCounters {
  /** A heartbeat to `backend` got no answer, or one saying its store is down. */
  missed(backend: string): void;
}

/** What the repair runner reports. */
export interface RepairCounters {
  /** An attempt at a job began (a retry is another attempt). */
  started(kind: RepairKind): void;
  /** A job finished and its intent was marked done. */
  finished(kind: RepairKind, seconds: number): void;
  /** Entries (and their bytes) an attempt copied, finished or not. */
  copied(kind: RepairKind, entries: number, bytes: number): void;
}

/** What the gauges read from the keeper at scrape time. */
export interface KeeperReadings {
  owned(): number;
  /** Every backend and its state in the merged view. */
  states(): readonly { address: string; state: HealthState; repairing: boolean }[];
  epoch(): bigint;
  running(): RunningRepair | undefined;
  queued(): number;
  /** Intents and done marks in the keeper log at its last read (undefined before one). */
  intentLog(): { intents: number; done: number } | undefined;
}

/** The enum-style series of one backend: 1 for its state, 0 for every other. */
export function stateSeries(state: HealthState): { state: HealthState; value: 0 | 1 }[] {
  return HEALTH_STATES.map((each) => ({ state: each, value: each === state ? 1 : 0 }));
}

/** How far a running job is, from 0 to 1: copy tasks done of those planned (0 before it planned any). */
export function progressRatio(progress: RunningRepair["progress"]): number {
  return progress.tasksTotal === 0 ? 0 : progress.tasksDone / progress.tasksTotal;
}

export class KeeperMetrics implements ProbeCounters, RepairCounters {
  readonly registry = new Registry();
  readonly #misses: Counter<"backend">;
  readonly #started: Counter<"kind">;
  readonly #finished: Counter<"kind">;
  readonly #entries: Counter<"kind">;
  readonly #bytes: Counter<"kind">;
  readonly #duration: Histogram<"kind">;

  constructor(read: KeeperReadings) {
    const registers = [this.registry];
    this.#misses = new Counter({
      name: "binring_keeper_heartbeat_misses_total",
      help: "Heartbeats to a backend that got no answer, or an answer that its store is down",
      labelNames: ["backend"],
      registers,
    });
    this.#started = new Counter({
      name: "binring_keeper_repairs_started_total",
      help: "Attempts at a repair (after a death) or a fill (of a backend that came back) begun; a retry counts again",
      labelNames: ["kind"],
      registers,
    });
    this.#finished = new Counter({
      name: "binring_keeper_repairs_finished_total",
      help: "Repairs and fills finished, their intent marked done",
      labelNames: ["kind"],
      registers,
    });
    this.#entries = new Counter({
      name: "binring_keeper_repair_entries_copied_total",
      help: "Entries copied by repairs and fills, counted when each attempt ends",
      labelNames: ["kind"],
      registers,
    });
    this.#bytes = new Counter({
      name: "binring_keeper_repair_bytes_copied_total",
      help: "UTF-8 bytes of the bins, keys and values of the entries repairs and fills copied, counted when each attempt ends",
      labelNames: ["kind"],
      registers,
    });
    this.#duration = new Histogram({
      name: "binring_keeper_repair_duration_seconds",
      help: "Time from the fence to the intent marked done, per finished repair or fill",
      labelNames: ["kind"],
      buckets: REPAIR_SECONDS_BUCKETS,
      registers,
    });
    // Every series exists from the start at 0, so a rate or an increase sees its first event.
    for (const kind of ["repair", "fill"] as const) {
      this.#started.inc({ kind }, 0);
      this.#finished.inc({ kind }, 0);
      this.#entries.inc({ kind }, 0);
      this.#bytes.inc({ kind }, 0);
      this.#duration.zero({ kind });
    }
    for (const { address } of read.states()) this.#misses.inc({ backend: address }, 0);
    new Gauge({
      name: "binring_keeper_owned_backends",
      help: "Backends in this keeper's slice",
      registers,
      collect() {
        this.set(read.owned());
      },
    });
    new Gauge({
      name: "binring_keeper_backend_state",
      help: "Each backend's state in the merged view: 1 for its current state, 0 for the others",
      labelNames: ["backend", "state"],
      registers,
      collect() {
        for (const { address, state } of read.states())
          for (const series of stateSeries(state))
            this.set({ backend: address, state: series.state }, series.value);
      },
    });
    new Gauge({
      name: "binring_keeper_backend_repairing",
      help: "1 while a dead backend's bins are not yet re-copied onto its stand-ins",
      labelNames: ["backend"],
      registers,
      collect() {
        for (const { address, repairing } of read.states()) this.set({ backend: address }, repairing ? 1 : 0);
      },
    });
    new Gauge({
      name: "binring_keeper_view_epoch",
      help: "Epoch of the merged cluster view",
      registers,
      collect() {
        this.set(Number(read.epoch()));
      },
    });
    new Gauge({
      name: "binring_keeper_repairs_queued",
      help: "Repairs and fills waiting to run",
      registers,
      collect() {
        this.set(read.queued());
      },
    });
    new Gauge({
      name: "binring_keeper_intent_log_entries",
      help: "Elements of the keeper log at this keeper's last read of it: intents recorded, and marks of intents done",
      labelNames: ["list"],
      registers,
      collect() {
        const log = read.intentLog();
        if (!log) return;
        this.set({ list: "intents" }, log.intents);
        this.set({ list: "done" }, log.done);
      },
    });
    new Gauge({
      name: "binring_keeper_repair_progress_ratio",
      help: "Copy tasks done of those planned, of the repair or fill running now (no series while none runs)",
      labelNames: ["kind", "backend"],
      registers,
      collect() {
        this.reset();
        const running = read.running();
        if (running)
          this.set({ kind: running.job.kind, backend: running.job.backend }, progressRatio(running.progress));
      },
    });
  }

  missed(backend: string): void {
    this.#misses.inc({ backend });
  }

  started(kind: RepairKind): void {
    this.#started.inc({ kind });
  }

  finished(kind: RepairKind, seconds: number): void {
    this.#finished.inc({ kind });
    this.#duration.observe({ kind }, seconds);
  }

  copied(kind: RepairKind, entries: number, bytes: number): void {
    if (entries > 0) this.#entries.inc({ kind }, entries);
    if (bytes > 0) this.#bytes.inc({ kind }, bytes);
  }
}
