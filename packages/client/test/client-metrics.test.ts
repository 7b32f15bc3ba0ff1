// Client-side metrics (client-metrics.ts) on fake replicas: every Bin call is
// counted by operation and outcome with its latency, failed replica calls by
// kind, and the gauges read the session when scraped.
import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { ClientMetrics, outcomeOf } from "../src/client-metrics.js";
import { binOnFakes } from "./support/bin-on-fakes.js";
import { BACKEND_CALL_TIMEOUT_MS } from "./support/fake-replicas.js";

let fakes: ReturnType<typeof binOnFakes> | undefined;
afterEach(() => fakes?.close());

async function sample(
  registry: Registry,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  let sum = 0;
  for (const metric of await registry.getMetricsAsJSON()) {
    if (!name.startsWith(metric.name)) continue;
    for (const value of metric.values as {
      labels: Record<string, string | number>;
      value: number;
      metricName?: string;
    }[]) {
      const matches = Object.entries(labels).every(
        ([label, wanted]) => String(value.labels[label]) === wanted,
      );
      if ((value.metricName ?? metric.name) === name && matches) sum += value.value;
    }
  }
  return sum;
}

function metered() {
  const registry = new Registry();
  let epoch = 7n;
  const metrics = new ClientMetrics(registry, { epoch: () => epoch, unreachable: () => 2 });
  fakes = binOnFakes(undefined, metrics);
  return { registry, ...fakes, setEpoch: (e: bigint) => (epoch = e) };
}

describe("client metrics", () => {
  it("count each call by operation and outcome, with its latency", async () => {
    const { registry, bin } = metered();
    await bin.set("k", "v");
    await bin.set("k", "w");
    expect(await bin.get("k")).toBe("w");
    await bin.listAppend("l", "a");
    await expect(bin.clock(2n ** 64n)).rejects.toThrow();
    expect(
      await sample(registry, "binring_client_operations_total", { operation: "set", outcome: "OK" }),
    ).toBe(2);
    expect(
      await sample(registry, "binring_client_operations_total", { operation: "get", outcome: "OK" }),
    ).toBe(1);
    expect(
      await sample(registry, "binring_client_operations_total", { operation: "listAppend", outcome: "OK" }),
    ).toBe(1);
    expect(
      await sample(registry, "binring_client_operations_total", {
        operation: "clock",
        outcome: "INVALID_ARGUMENT",
      }),
    ).toBe(1);
    expect(
      await sample(registry, "binring_client_operation_duration_seconds_count", { operation: "set" }),
    ).toBe(2);
  });

  it("count failed replica calls by kind", async () => {
    const { registry, bin, primary, backup1 } = metered();
    primary.gone = true;
    backup1.ready = false;
    await bin.get("k");
    expect(await sample(registry, "binring_client_replica_failures_total", { kind: "gone" })).toBeGreaterThan(
      0,
    );
    expect(await sample(registry, "binring_client_replica_failures_total", { kind: "not-ready" })).toBe(1);
  });

  it("count a call that gave up at its deadline by its code, and each replica call that timed out", async () => {
    const { registry, bin, primary } = metered();
    primary.pausedUntil = Number.POSITIVE_INFINITY;
    await expect(bin.get("k")).rejects.toThrow();
    expect(
      await sample(registry, "binring_client_operations_total", {
        operation: "get",
        outcome: "DEADLINE_EXCEEDED",
      }),
    ).toBe(1);
    expect(
      await sample(registry, "binring_client_replica_failures_total", { kind: "retry" }),
    ).toBeGreaterThanOrEqual(Math.floor(10_000 / BACKEND_CALL_TIMEOUT_MS) - 1);
  });

  it("read the view epoch and the unreachable backends when scraped", async () => {
    const { registry, setEpoch } = metered();
    expect(await sample(registry, "binring_client_view_epoch")).toBe(7);
    setEpoch(9n);
    expect(await sample(registry, "binring_client_view_epoch")).toBe(9);
    expect(await sample(registry, "binring_client_backends_unreachable")).toBe(2);
  });

  it("label an error that is not binring's as UNKNOWN", () => {
    expect(outcomeOf(undefined)).toBe("OK");
    expect(outcomeOf(new Error("boom"))).toBe("UNKNOWN");
  });
});
