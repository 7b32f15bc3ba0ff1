// A keeper's timing is checked where it is made: settings that become timers
// stop at the longest a timer waits (a longer one fires at once, over and
// over), and a copy batch at what a backend sends in one Scan message.
import { InvalidArgumentError, MAX_SCAN_BATCH, MAX_TIMER_MS } from "@binring/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../src/keeper-clock.js";
import { parseKeeperTiming } from "../src/keeper-options.js";

describe("parseKeeperTiming", () => {
  it.each(["heartbeatIntervalMs", "clockSyncIntervalMs"] as const)(
    "takes %s up to the longest timer and refuses one past it, naming it",
    (field) => {
      // Lease and probe are bounded by the heartbeat: keep them valid whatever it is.
      expect(parseKeeperTiming({ [field]: MAX_TIMER_MS })[field]).toBe(MAX_TIMER_MS);
      expect(() => parseKeeperTiming({ [field]: MAX_TIMER_MS + 1 })).toThrow(InvalidArgumentError);
      expect(() => parseKeeperTiming({ [field]: 2 ** 32 })).toThrow(
        `${field} must be at most ${MAX_TIMER_MS} ms (the longest a timer waits), got ${2 ** 32}`,
      );
    },
  );

  it("refuses a lease or probe timeout past the longest timer even when the heartbeat would allow it", () => {
    const heartbeatIntervalMs = MAX_TIMER_MS;
    expect(() => parseKeeperTiming({ heartbeatIntervalMs, leaseMs: MAX_TIMER_MS + 1 })).toThrow(
      /leaseMs must be at most 2147483647 ms/,
    );
    expect(() =>
      parseKeeperTiming({
        heartbeatIntervalMs: MAX_TIMER_MS,
        missesToDead: 3,
        probeTimeoutMs: MAX_TIMER_MS + 1,
      }),
    ).toThrow(/probeTimeoutMs must be at most 2147483647 ms/);
  });

  it("takes a copy batch up to what one Scan message carries", () => {
    expect(parseKeeperTiming({ copyBatchSize: MAX_SCAN_BATCH }).copyBatchSize).toBe(MAX_SCAN_BATCH);
    expect(() => parseKeeperTiming({ copyBatchSize: MAX_SCAN_BATCH + 1 })).toThrow(
      `copyBatchSize must be at most ${MAX_SCAN_BATCH} (entries a backend sends in one Scan message), got ${MAX_SCAN_BATCH + 1}`,
    );
  });
});

describe("systemClock.sleep", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("waits out a delay longer than one timer takes, in steps", async () => {
    vi.useFakeTimers();
    let woke = false;
    void systemClock.sleep(2 * MAX_TIMER_MS + 5).then(() => {
      woke = true;
    });
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect(woke).toBe(false);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS + 4);
    expect(woke).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(woke).toBe(true);
  });
});
