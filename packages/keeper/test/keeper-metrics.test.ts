// A keeper's Prometheus metrics: the pure mappings, and a keeper in process on
// a fake clock whose registry shows a death and its repair as they happen.
import type { MetricObjectWithValues, MetricValue } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { HEALTH_STATES, progressRatio, stateSeries } from "../src/keeper-metrics.js";
import { KeeperWorld } from "./support/keeper-world.js";

describe("stateSeries", () => {
  it.each(HEALTH_STATES)("%s: 1 for it, 0 for every other state, one series per state", (state) => {
    const series = stateSeries(state);
    expect(series.map((each) => each.state)).toEqual(HEALTH_STATES);
    expect(series.filter((each) => each.value === 1)).toEqual([{ state, value: 1 }]);
  });
});

describe("progressRatio", () => {
  it("is 0 before any task is planned, then tasks done of planned", () => {
    expect(
      progressRatio({ entriesCopied: 0, bytesCopied: 0, tasksDone: 0, tasksTotal: 0, duplicatesSkipped: 0 }),
    ).toBe(0);
    expect(
      progressRatio({
        entriesCopied: 10,
        bytesCopied: 90,
        tasksDone: 1,
        tasksTotal: 4,
        duplicatesSkipped: 0,
      }),
    ).toBe(0.25);
    expect(
      progressRatio({
        entriesCopied: 10,
        bytesCopied: 90,
        tasksDone: 4,
        tasksTotal: 4,
        duplicatesSkipped: 0,
      }),
    ).toBe(1);
  });
});

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A histogram's samples carry their own name (`NAME_count`, ...), which prom-client's types leave out. */
type Metrics = MetricObjectWithValues<MetricValue<string> & { metricName?: string }>[];

/** A sample's value by its name (a histogram's as `NAME_count`, `NAME_sum`) and some of its labels. */
function value(metrics: Metrics, name: string, labels: Record<string, string> = {}): number | undefined {
  return metrics
    .flatMap((metric) => metric.values.map((sample) => ({ name: sample.metricName ?? metric.name, sample })))
    .find(
      (each) =>
        each.name === name &&
        Object.entries(labels).every(([label, wanted]) => each.sample.labels[label] === wanted),
    )?.sample.value;
}

describe("a keeper's registry", () => {
  it("shows its slice, the view, a death, its misses and its repair", async () => {
    world = new KeeperWorld({ backends: 6, keepers: 1 });
    world.startAll();
    const w = world;
    await w.until(() => w.allReady(), 10_000, "a fresh cluster is ready");
    for (let i = 0; i < 30; i++) await w.write(`bin-${i}`, "k", `v${i}`);
    const keeper = w.keeper(0);
    const scrape = () => keeper.metrics.registry.getMetricsAsJSON();

    const before = await scrape();
    expect(value(before, "binring_keeper_owned_backends")).toBe(6);
    expect(value(before, "binring_keeper_view_epoch")).toBe(Number(keeper.epoch));
    const [victim] = w.addresses;
    expect(value(before, "binring_keeper_backend_state", { backend: victim!, state: "ready" })).toBe(1);
    expect(value(before, "binring_keeper_backend_state", { backend: victim!, state: "dead" })).toBe(0);
    expect(value(before, "binring_keeper_repairs_finished_total", { kind: "repair" })).toBe(0);

    w.backend(victim!).fault = "down";
    await w.until(
      () => keeper.status().completedRepairs.some((r) => r.backend === victim && r.kind === "repair"),
      10_000,
      "the victim is declared dead and repaired",
    );
    const after = await scrape();
    expect(value(after, "binring_keeper_backend_state", { backend: victim!, state: "dead" })).toBe(1);
    expect(value(after, "binring_keeper_backend_state", { backend: victim!, state: "ready" })).toBe(0);
    expect(
      value(after, "binring_keeper_heartbeat_misses_total", { backend: victim! }),
    ).toBeGreaterThanOrEqual(keeper.timing.missesToDead);
    expect(value(after, "binring_keeper_repairs_started_total", { kind: "repair" })).toBeGreaterThanOrEqual(
      1,
    );
    expect(value(after, "binring_keeper_repairs_finished_total", { kind: "repair" })).toBe(1);
    expect(value(after, "binring_keeper_repair_entries_copied_total", { kind: "repair" })).toBeGreaterThan(0);
    // Every entry carries its bin, key and value: more bytes than entries.
    expect(value(after, "binring_keeper_repair_bytes_copied_total", { kind: "repair" })).toBeGreaterThan(
      value(after, "binring_keeper_repair_entries_copied_total", { kind: "repair" })!,
    );
    expect(value(after, "binring_keeper_repair_duration_seconds_count", { kind: "repair" })).toBe(1);
    expect(value(after, "binring_keeper_view_epoch")).toBeGreaterThan(
      value(before, "binring_keeper_view_epoch")!,
    );
    // The log is read again every few rounds: then it holds the repair's intent and its done mark.
    await w.clock.advance(15_000);
    const later = await keeper.metrics.registry.getMetricsAsJSON();
    expect(value(later, "binring_keeper_intent_log_entries", { list: "intents" })).toBeGreaterThanOrEqual(1);
    expect(value(later, "binring_keeper_intent_log_entries", { list: "done" })).toBeGreaterThanOrEqual(1);
  });

  it("is the keeper's own: two keepers in one process keep their series apart", async () => {
    world = new KeeperWorld({ backends: 3, keepers: 2 });
    world.startAll();
    const w = world;
    await w.until(() => w.allReady(0) && w.allReady(1), 10_000, "a fresh cluster is ready");
    const owned = await Promise.all(
      [0, 1].map(async (i) =>
        value(await w.keeper(i).metrics.registry.getMetricsAsJSON(), "binring_keeper_owned_backends"),
      ),
    );
    expect(owned[0]! + owned[1]!).toBe(3);
  });
});
