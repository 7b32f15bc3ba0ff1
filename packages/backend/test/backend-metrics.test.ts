// A backend's Prometheus metrics: the label mappings, counting and timing of
// calls, the gauges read from the node, the lease left, and /metrics over HTTP.
import { parseLimits } from "@binring/core";
import { status } from "@grpc/grpc-js";
import type { MetricObjectWithValues, MetricValue } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { BackendMetrics, codeName, operationMethod, UNARY_METHODS } from "../src/backend-metrics.js";
import { BackendNode } from "../src/backend-node.js";
import { MemoryEngine } from "../src/memory-engine.js";
import { Readiness } from "../src/readiness.js";
import { type RunningBackend, startBackend } from "../src/start-backend.js";

/** A histogram's samples carry their own name (`NAME_count`, ...), which prom-client's types leave out. */
type Metrics = MetricObjectWithValues<MetricValue<string> & { metricName?: string }>[];

/** A sample's value by its name (a histogram's as `NAME_count`) and some of its labels. */
function value(metrics: Metrics, name: string, labels: Record<string, string> = {}): number | undefined {
  return metrics
    .flatMap((metric) => metric.values.map((sample) => ({ name: sample.metricName ?? metric.name, sample })))
    .find(
      (each) =>
        each.name === name &&
        Object.entries(labels).every(([label, wanted]) => each.sample.labels[label] === wanted),
    )?.sample.value;
}

describe("labels", () => {
  it("names an operation of a Batch or Pipe as its unary method, anything else Unknown", () => {
    expect(operationMethod("get")).toBe("Get");
    expect(operationMethod("listAppend")).toBe("ListAppend");
    expect(operationMethod("listRemove")).toBe("ListRemove");
    expect(operationMethod("clock")).toBe("Clock");
    expect(operationMethod(undefined)).toBe("Unknown");
    expect(operationMethod("constructor")).toBe("Unknown");
    for (const op of ["get", "set", "keys", "listKeys", "listGet", "listAppend", "listRemove", "clock"])
      expect(UNARY_METHODS).toContain(operationMethod(op));
  });

  it("names gRPC codes by their status name, an undefined one UNKNOWN", () => {
    expect(codeName(status.OK)).toBe("OK");
    expect(codeName(status.FAILED_PRECONDITION)).toBe("FAILED_PRECONDITION");
    expect(codeName(status.UNAVAILABLE)).toBe("UNAVAILABLE");
    expect(codeName(99)).toBe("UNKNOWN");
    expect(codeName(-1)).toBe("UNKNOWN");
  });
});

describe("Readiness.leaseRemainingMs", () => {
  it("is 0 when not ready, the time left under a lease, Infinity without one", () => {
    const clock = { now: 0 };
    const readiness = new Readiness(false, () => clock.now);
    expect(readiness.leaseRemainingMs).toBe(0);
    readiness.grant(true, 1000);
    clock.now = 400;
    expect(readiness.leaseRemainingMs).toBe(600);
    clock.now = 1000;
    expect(readiness.leaseRemainingMs).toBe(0);
    readiness.grant(true, 0);
    expect(readiness.leaseRemainingMs).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("BackendMetrics", () => {
  it("counts and times calls by method and code, unary ones through the wrapped handlers", async () => {
    const metrics = new BackendMetrics();
    metrics.call("Get", status.OK, performance.now());
    metrics.call("Get", status.OK, performance.now());
    metrics.call("Set", status.UNAVAILABLE, performance.now());
    const handlers = metrics.instrument({
      Set: (_call: unknown, callback: (error: { code: number } | null, reply?: unknown) => void) =>
        callback({ code: status.FAILED_PRECONDITION }),
      Batch: (_call: unknown, callback: (error: null, reply: unknown) => void) => callback(null, {}),
    });
    const replies: unknown[] = [];
    handlers.Set({}, (error) => replies.push(error));
    handlers.Batch({}, (_error, reply) => replies.push(reply));
    expect(replies).toEqual([{ code: status.FAILED_PRECONDITION }, {}]);
    metrics.batch(3);
    metrics.applied(20);

    const scraped = await metrics.registry.getMetricsAsJSON();
    expect(value(scraped, "binring_backend_calls_total", { method: "Get", code: "OK" })).toBe(2);
    expect(value(scraped, "binring_backend_calls_total", { method: "Set", code: "UNAVAILABLE" })).toBe(1);
    expect(
      value(scraped, "binring_backend_calls_total", { method: "Set", code: "FAILED_PRECONDITION" }),
    ).toBe(1);
    // Batch is not a call of its own: its operations are.
    expect(value(scraped, "binring_backend_calls_total", { method: "Batch" })).toBeUndefined();
    expect(value(scraped, "binring_backend_calls_total", { method: "Heartbeat", code: "OK" })).toBe(0);
    expect(value(scraped, "binring_backend_call_duration_seconds_count", { method: "Get" })).toBe(2);
    expect(value(scraped, "binring_backend_call_duration_seconds_count", { method: "Set" })).toBe(2);
    expect(value(scraped, "binring_backend_batch_operations_sum")).toBe(3);
    expect(value(scraped, "binring_backend_apply_entries_sum")).toBe(20);
  });

  it("reads readiness, lease, incarnation, epoch, clock and withheld sets from the node when scraped", async () => {
    const clock = { now: 0 };
    const node = new BackendNode({
      engine: new MemoryEngine(),
      limits: parseLimits({}),
      now: () => clock.now,
    });
    await node.clock.load();
    const metrics = new BackendMetrics();
    metrics.watch(node);
    let scraped = await metrics.registry.getMetricsAsJSON();
    expect(value(scraped, "binring_backend_readiness_state", { state: "not-ready" })).toBe(1);
    expect(value(scraped, "binring_backend_readiness_state", { state: "ready" })).toBe(0);
    expect(value(scraped, "binring_backend_lease_remaining_seconds")).toBe(0);
    expect(value(scraped, "binring_backend_incarnation_info", { incarnation: node.incarnation })).toBe(1);

    await node.heartbeat({ epoch: 7n, clockFloor: 5000n, ready: true, leaseMs: 2500, filled: true });
    clock.now = 500;
    scraped = await metrics.registry.getMetricsAsJSON();
    expect(value(scraped, "binring_backend_readiness_state", { state: "ready" })).toBe(1);
    expect(value(scraped, "binring_backend_readiness_state", { state: "not-ready" })).toBe(0);
    expect(value(scraped, "binring_backend_lease_remaining_seconds")).toBe(2);
    expect(value(scraped, "binring_backend_epoch")).toBe(7);
    expect(value(scraped, "binring_backend_clock")).toBe(Number(node.clock.peek()));
    const incarnations = scraped.find((metric) => metric.name === "binring_backend_incarnation_info")!.values;
    expect(incarnations).toHaveLength(1);
    expect(value(scraped, "binring_backend_withheld_sets")).toBe(0);

    const stamp = { clock: 9000n, writer: "0123456789abcdef", seq: 1 };
    const target = { bin: "b", epoch: 7n, requireReady: false };
    await node.write(target, { kind: "set", key: "k", value: "v", stamp, later: ["10.0.0.2:7000"] });
    metrics.withheldForward("lacking");
    scraped = await metrics.registry.getMetricsAsJSON();
    expect(value(scraped, "binring_backend_withheld_sets")).toBe(1);
    expect(value(scraped, "binring_backend_withheld_forwards_total", { outcome: "lacking" })).toBe(1);
    expect(value(scraped, "binring_backend_withheld_forwards_total", { outcome: "released" })).toBe(0);
  });
});

describe("startBackend with an HTTP address", () => {
  let backend: RunningBackend | undefined;
  afterEach(async () => {
    await backend?.close();
    backend = undefined;
  });

  it("serves GET /metrics in the registry's content type, and nothing else", async () => {
    backend = await startBackend({ listen: "127.0.0.1:0", http: "127.0.0.1:0", store: { engine: "memory" } });
    expect(backend.httpAddress).toMatch(/^127\.0\.0\.1:\d+$/);
    const response = await fetch(`http://${backend.httpAddress}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    expect(await response.text()).toContain("# TYPE binring_backend_calls_total counter");
    expect((await fetch(`http://${backend.httpAddress}/`)).status).toBe(404);
  });

  it("keeps no metrics without one", async () => {
    backend = await startBackend({ listen: "127.0.0.1:0", store: { engine: "memory" } });
    expect(backend.httpAddress).toBeUndefined();
  });
});
