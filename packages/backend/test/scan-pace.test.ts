// A paced Scan reads on only once what it sent is due at the asked rate
// (scan-pace.ts), and catches up at most a quarter second after falling behind.
import { MAX_TIMER_MS } from "@binring/core";
import { describe, expect, it } from "vitest";
import { ScanPace } from "../src/scan-pace.js";

describe("ScanPace", () => {
  it("waits until the bytes sent so far are due at the rate", () => {
    let now = 1000;
    const pace = new ScanPace(1000, () => now);
    expect(pace.sent(500)).toBe(500);
    now += 500;
    expect(pace.sent(250)).toBe(250);
    now += 100;
    expect(pace.sent(1000)).toBe(1150);
  });

  it("lets a scan that fell behind catch up by a quarter second at most", () => {
    let now = 0;
    const pace = new ScanPace(1000, () => now);
    now = 10_000;
    // 10 s behind: only 250 ms of it is credit, so 1000 bytes wait 750 ms.
    expect(pace.sent(1000)).toBe(750);
  });

  it("waits at most what a timer takes, then tells the rest", () => {
    let now = 0;
    const pace = new ScanPace(1, () => now);
    // 12 MiB at 1 B/s: about 145 days, past a timer's 24.8.
    expect(pace.sent(12 * 2 ** 20)).toBe(MAX_TIMER_MS);
    now += MAX_TIMER_MS;
    expect(pace.sent(0)).toBe(MAX_TIMER_MS);
    now += 4 * MAX_TIMER_MS;
    expect(pace.sent(0)).toBe(12 * 2 ** 20 * 1000 - 5 * MAX_TIMER_MS);
    now += 12 * 2 ** 20 * 1000 - 5 * MAX_TIMER_MS;
    expect(pace.sent(0)).toBe(0);
  });

  it("never waits when not paced", () => {
    const pace = new ScanPace(0, () => 0);
    expect(pace.paced).toBe(false);
    expect(pace.sent(10 ** 9)).toBe(0);
  });
});
