// The data path's counters and histograms (hot-metrics.ts) read, through a
// registry, exactly as prom-client's own would after the same observations:
// same lines, same order of labels, same cumulative buckets, +Inf, sum, count.
import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { HotCounter, HotHistogram } from "../src/hot-metrics.js";

const BUCKETS = [0.001, 0.01, 0.1, 1];
const VALUES = [0, 0.0005, 0.001, 0.002, 0.05, 0.5, 1, 7, 0.01];

describe("hot metrics", () => {
  it("expose a histogram as prom-client does, with and without labels", async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const labelled = new Histogram({
      name: "d",
      help: "h",
      labelNames: ["method"],
      buckets: BUCKETS,
      registers: [theirs],
    });
    const plain = new Histogram({ name: "e", help: "h2", buckets: BUCKETS, registers: [theirs] });
    const hotLabelled = new HotHistogram({ name: "d", help: "h", buckets: BUCKETS, registers: [ours] });
    const hotPlain = new HotHistogram({ name: "e", help: "h2", buckets: BUCKETS, registers: [ours] });
    labelled.zero({ method: "Idle" });
    hotLabelled.series({ method: "Idle" });
    for (const value of VALUES) {
      labelled.labels("Get").observe(value);
      hotLabelled.series({ method: "Get" }).observe(value);
      plain.observe(value * 3);
      hotPlain.series().observe(value * 3);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it("expose a counter as prom-client does", async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const counter = new Counter({
      name: "c_total",
      help: "calls",
      labelNames: ["method", "code"],
      registers: [theirs],
    });
    const hot = new HotCounter({ name: "c_total", help: "calls", registers: [ours] });
    counter.inc({ method: "Get", code: "OK" }, 0);
    hot.series({ method: "Get", code: "OK" });
    for (let i = 0; i < 5; i++) {
      counter.labels("Set", "UNAVAILABLE").inc();
      hot.series({ method: "Set", code: "UNAVAILABLE" }).inc();
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
