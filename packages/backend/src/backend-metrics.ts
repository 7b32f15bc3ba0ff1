// A backend's Prometheus metrics, served at HTTP GET /metrics when it is
// started with an HTTP address (metrics-server.ts). One Registry per backend,
// never prom-client's global one, so backends started in one process (tests,
// embedders) keep their series apart. Labels are bounded: method names and
// gRPC code names only, never keys, bins or callers' addresses.
//
// A data call is one operation, whether it came alone (a unary Get) or inside
// a Batch or a Pipe stream (as the SDK sends them): the same method label
// either way, so the call rate does not depend on how clients batch.
import { status } from "@grpc/grpc-js";
import { Counter, Gauge, Registry } from "prom-client";
import type { BackendNode } from "./backend-node.js";
import { type CounterSeries, type HistogramSeries, HotCounter, HotHistogram } from "./hot-metrics.js";
import type { ReadinessState } from "./readiness.js";
import { FORWARD_OUTCOMES, type ForwardOutcome } from "./withheld-release.js";

const READINESS_STATES: readonly ReadinessState[] = ["not-ready", "ready", "needs-fill", "retired"];

/** Data calls take well under a millisecond to seconds (a Redis at its command timeout). */
const CALL_SECONDS_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5,
];
/** Entries per Apply: a keeper's copy sends up to 2000 per call. */
const APPLY_ENTRIES_BUCKETS = [1, 10, 50, 100, 250, 500, 1000, 2000, 5000];
/** Operations per Batch or Pipe message: up to MAX_OPERATIONS_PER_MESSAGE. */
const BATCH_OPERATIONS_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

/** The unary methods counted as calls; Batch, Pipe and Scan carry work counted by what they carry. */
export const UNARY_METHODS = [
  "Get",
  "Set",
  "Keys",
  "ListGet",
  "ListAppend",
  "ListRemove",
  "ListKeys",
  "Clock",
  "Apply",
  "Drop",
  "Empty",
] as const;

const OPERATION_METHODS = new Map<string, string>([
  ["get", "Get"],
  ["set", "Set"],
  ["keys", "Keys"],
  ["listKeys", "ListKeys"],
  ["listGet", "ListGet"],
  ["listAppend", "ListAppend"],
  ["listRemove", "ListRemove"],
  ["clock", "Clock"],
  // Pipe only: a replicated write to its coordinator, a retried write's claim, and a withheld set's release.
  ["write", "Write"],
  ["claim", "Claim"],
  ["release", "Release"],
]);

/** The method label of an operation of a Batch or Pipe (its oneof field), the same as its unary method's. */
export function operationMethod(op: string | undefined): string {
  return OPERATION_METHODS.get(op ?? "") ?? "Unknown";
}

/** The code label: the gRPC status name ("OK", "UNAVAILABLE", ...); "UNKNOWN" for a number gRPC does not define. */
export function codeName(code: number): string {
  const name = (status as unknown as Record<number, string | undefined>)[code];
  return typeof name === "string" ? name : "UNKNOWN";
}

/** A grpc-js unary handler, as far as counting its answer needs. */
type UnaryHandler = (
  call: unknown,
  callback: (error: { code?: number } | null, ...rest: unknown[]) => void,
) => void;

/** One method's series, looked up once: the hot path then allocates nothing (hot-metrics.ts). */
interface MethodSeries {
  byCode: Map<number, CounterSeries>;
  duration: HistogramSeries;
}

export class BackendMetrics {
  readonly registry = new Registry();
  readonly #calls: HotCounter;
  readonly #duration: HotHistogram;
  readonly #applyEntries: HistogramSeries;
  readonly #batchOperations: HistogramSeries;
  readonly #redisDuration: HistogramSeries;
  readonly #withheldForwards: Counter<"outcome">;
  readonly #methods = new Map<string, MethodSeries>();

  constructor() {
    const registers = [this.registry];
    this.#calls = new HotCounter({
      name: "binring_backend_calls_total",
      help: "Data calls answered, alone or inside a Batch or Pipe, by method and gRPC code",
      registers,
    });
    this.#duration = new HotHistogram({
      name: "binring_backend_call_duration_seconds",
      help: "Time to answer a data call, from its decoding to its result",
      buckets: CALL_SECONDS_BUCKETS,
      registers,
    });
    this.#applyEntries = new HotHistogram({
      name: "binring_backend_apply_entries",
      help: "Entries per Apply call (replication and keeper copies)",
      buckets: APPLY_ENTRIES_BUCKETS,
      registers,
    }).series();
    this.#batchOperations = new HotHistogram({
      name: "binring_backend_batch_operations",
      help: "Operations per Batch call or Pipe message",
      buckets: BATCH_OPERATIONS_BUCKETS,
      registers,
    }).series();
    this.#redisDuration = new HotHistogram({
      name: "binring_backend_redis_call_duration_seconds",
      help: "Time a Redis call took, queueing for its event-loop turn included",
      buckets: CALL_SECONDS_BUCKETS,
      registers,
    }).series();
    this.#withheldForwards = new Counter({
      name: "binring_backend_withheld_forwards_total",
      help: "This backend's own forwards of a set it withholds that no coordinator released, by how each ended",
      labelNames: ["outcome"],
      registers,
    });
    for (const outcome of FORWARD_OUTCOMES) this.#withheldForwards.inc({ outcome }, 0);
    // Heartbeats come on a stream and are counted one by one (heartbeat-stream.ts).
    for (const method of [...UNARY_METHODS, "Heartbeat"]) this.#series(method);
  }

  /** Adds the gauges read from the node at scrape time (the node is made after its engine, which reports Redis calls here). */
  watch(node: BackendNode): void {
    const registers = [this.registry];
    new Gauge({
      name: "binring_backend_readiness_state",
      help: "Readiness: 1 for the current state, 0 for the others",
      labelNames: ["state"],
      registers,
      collect() {
        const current = node.readinessState;
        for (const state of READINESS_STATES) this.set({ state }, state === current ? 1 : 0);
      },
    });
    new Gauge({
      name: "binring_backend_lease_remaining_seconds",
      help: "Seconds left on the readiness lease: 0 when not ready, +Inf when ready until revoked",
      registers,
      collect() {
        this.set(node.leaseRemainingMs / 1000);
      },
    });
    new Gauge({
      name: "binring_backend_incarnation_info",
      help: "1, labelled with the current incarnation (changes when the backend may have lost entries)",
      labelNames: ["incarnation"],
      registers,
      collect() {
        this.reset();
        this.set({ incarnation: node.incarnation }, 1);
      },
    });
    new Gauge({
      name: "binring_backend_epoch",
      help: "The view epoch the keepers last gave this backend",
      registers,
      collect() {
        this.set(Number(node.epoch));
      },
    });
    new Gauge({
      name: "binring_backend_withheld_sets",
      help: "Sets taken and withheld from readers until the replicas after this one hold them",
      registers,
      collect() {
        this.set(node.withheld.size);
      },
    });
    new Gauge({
      name: "binring_backend_clock",
      help: "The Lamport clock (above 2^53 it is rounded)",
      registers,
      collect() {
        this.set(Number(node.clock.peek()));
      },
    });
  }

  /** Records one call of `method` that ended with gRPC `code`, begun at `startedMs` (performance.now()). */
  call(method: string, code: number, startedMs: number): void {
    const series = this.#series(method);
    let counter = series.byCode.get(code);
    if (!counter) {
      counter = this.#calls.series({ method, code: codeName(code) });
      series.byCode.set(code, counter);
    }
    counter.inc();
    series.duration.observe((performance.now() - startedMs) / 1000);
  }

  applied(entries: number): void {
    this.#applyEntries.observe(entries);
  }

  batch(operations: number): void {
    this.#batchOperations.observe(operations);
  }

  redisCall(seconds: number): void {
    this.#redisDuration.observe(seconds);
  }

  withheldForward(outcome: ForwardOutcome): void {
    this.#withheldForwards.inc({ outcome });
  }

  /** Wraps the unary handlers of UNARY_METHODS so each answer is counted and timed. */
  instrument<T extends object>(handlers: T): T {
    const wrapped: Record<string, unknown> = { ...(handlers as Record<string, unknown>) };
    for (const method of UNARY_METHODS) {
      const handle = (handlers as Record<string, UnaryHandler | undefined>)[method];
      if (!handle) continue;
      wrapped[method] = ((call, callback) => {
        const startedMs = performance.now();
        handle(call, (error, ...rest) => {
          this.call(method, error ? (error.code ?? status.UNKNOWN) : status.OK, startedMs);
          callback(error, ...rest);
        });
      }) satisfies UnaryHandler;
    }
    return wrapped as T;
  }

  #series(method: string): MethodSeries {
    let series = this.#methods.get(method);
    if (!series) {
      // Every method's OK series exists from the start at 0, so a rate or an increase sees its first call.
      const ok = this.#calls.series({ method, code: "OK" });
      series = { byCode: new Map([[status.OK, ok]]), duration: this.#duration.series({ method }) };
      this.#methods.set(method, series);
    }
    return series;
  }
}
