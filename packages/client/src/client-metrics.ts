// Client-side Prometheus metrics, on a registry the application passes in
// (BinClientOptions.metrics): every Bin call by operation and outcome, its
// latency, the failed replica calls by how they affect the operation
// (failure-kind.ts), restamped writes, the view epoch and the backends this
// client found unreachable. Without a registry the paths report to NO_METRICS
// and nothing is counted.
import { BinringError } from "@binring/core";
import { status } from "@grpc/grpc-js";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { FailureKind } from "./failure-kind.js";

/** What the read and write paths report; ClientSession carries one. */
export interface OperationObserver {
  /** One Bin call ended: its error, if it failed. */
  operation(name: string, seconds: number, error?: unknown): void;
  /** A call to one replica failed this way. */
  replicaFailure(kind: FailureKind): void;
  /** A write was stamped again, a remove of its value having got ahead of it. */
  restamp(): void;
}

export const NO_METRICS: OperationObserver = {
  operation: () => {},
  replicaFailure: () => {},
  restamp: () => {},
};

/** The outcome label: "OK", or the gRPC code name of the error's class ("UNKNOWN" for any other error). */
export function outcomeOf(error: unknown): string {
  if (error === undefined) return "OK";
  if (!(error instanceof BinringError)) return "UNKNOWN";
  return (status as unknown as Record<number, string | undefined>)[error.code] ?? "UNKNOWN";
}

/** What the gauges read when scraped. */
export interface ClientReadings {
  epoch(): bigint;
  unreachable(): number;
}

export class ClientMetrics implements OperationObserver {
  readonly #operations: Counter<"operation" | "outcome">;
  readonly #duration: Histogram<"operation">;
  readonly #failures: Counter<"kind">;
  readonly #restamps: Counter;

  constructor(registry: Registry, read: ClientReadings) {
    const registers = [registry];
    this.#operations = new Counter({
      name: "binring_client_operations_total",
      help: "Bin calls ended, by operation and outcome (OK or the gRPC code name of the error)",
      labelNames: ["operation", "outcome"],
      registers,
    });
    this.#duration = new Histogram({
      name: "binring_client_operation_duration_seconds",
      help: "Time a Bin call took, retries and waits for replicas included",
      labelNames: ["operation"],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.#failures = new Counter({
      name: "binring_client_replica_failures_total",
      help: "Failed calls to one replica, by their effect: gone, not-ready, stale-view, retry (slow or paused) or fatal",
      labelNames: ["kind"],
      registers,
    });
    this.#restamps = new Counter({
      name: "binring_client_restamps_total",
      help: "Writes stamped again because a remove of their value got ahead of them",
      registers,
    });
    new Gauge({
      name: "binring_client_view_epoch",
      help: "Epoch of the cluster view this client acts on (0 without keepers)",
      registers,
      collect() {
        this.set(Number(read.epoch()));
      },
    });
    new Gauge({
      name: "binring_client_backends_unreachable",
      help: "Backends this client found unreachable and probes until they answer",
      registers,
      collect() {
        this.set(read.unreachable());
      },
    });
  }

  operation(name: string, seconds: number, error?: unknown): void {
    this.#operations.inc({ operation: name, outcome: outcomeOf(error) });
    this.#duration.observe({ operation: name }, seconds);
  }

  replicaFailure(kind: FailureKind): void {
    this.#failures.inc({ kind });
  }

  restamp(): void {
    this.#restamps.inc();
  }
}
