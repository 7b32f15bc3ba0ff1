// The rebalance benchmark's foreground loads: sets and gets on bins of their
// own while a backend joins or leaves. A closed loop measures throughput; a
// paced load, issuing calls on a schedule whatever came back, measures the
// latency a caller below saturation sees.
import { setTimeout as sleep } from "node:timers/promises";
import type { BinClient } from "@binring/client";
import { newHistogram, type RawMeasurement } from "@binring/load";
import { fmt } from "./measure.js";

/** Foreground bins; the closed loop runs one caller on each. */
export const FOREGROUND = 16;
/** Calls the paced load lets run at once; past it, it waits (latency still counts from when a call was due). */
const PACED_IN_FLIGHT = 1000;

/** Told of each call that succeeded: when it was due (performance.now()) and how long after that it completed, in ms. */
export type CallObserver = (dueAt: number, latencyMs: number) => void;

/** A foreground load: runs until `stop` says so, latencies in µs. */
export interface Foreground {
  label: string;
  run(stop: () => boolean, observe?: CallObserver): Promise<RawMeasurement>;
}

/** The `i`-th call of a foreground load on `bin`: sets and gets of 100 keys in turn. */
function call(bin: ReturnType<BinClient["bin"]>, i: number): Promise<unknown> {
  return i % 2 === 0 ? bin.set(`k${i % 100}`, "v".repeat(32)) : bin.get(`k${(i - 1) % 100}`);
}

export function closedLoop(client: BinClient): Foreground {
  return {
    label: `closed loop, ${FOREGROUND} callers`,
    async run(stop, observe) {
      const histogram = newHistogram();
      let completed = 0;
      let errors = 0;
      const startedAt = performance.now();
      const caller = async (id: number) => {
        const bin = client.bin(`foreground-${id}`);
        for (let i = 0; !stop(); i++) {
          const started = performance.now();
          try {
            await call(bin, i);
            const latencyMs = performance.now() - started;
            histogram.recordValue(Math.max(1, Math.round(latencyMs * 1000)));
            observe?.(started, latencyMs);
            completed++;
          } catch {
            errors++;
          }
        }
      };
      await Promise.all(Array.from({ length: FOREGROUND }, (_, id) => caller(id)));
      return { histogram, completed, errors, durationMs: performance.now() - startedAt };
    },
  };
}

/** Calls at `ratePerSecond` over the foreground bins in turn, each bin's calls in order of issue. */
export function pacedLoad(client: BinClient, ratePerSecond: number): Foreground {
  return {
    label: `paced, ${fmt.ops(ratePerSecond)} ops/s`,
    async run(stop, observe) {
      const histogram = newHistogram();
      const bins = Array.from({ length: FOREGROUND }, (_, id) => client.bin(`paced-${id}`));
      const inFlight = new Set<Promise<void>>();
      let completed = 0;
      let errors = 0;
      let issued = 0;
      const startedAt = performance.now();
      while (!stop()) {
        const due = Math.floor(((performance.now() - startedAt) * ratePerSecond) / 1000);
        for (; issued < due && inFlight.size < PACED_IN_FLIGHT; issued++) {
          const dueAt = startedAt + (issued * 1000) / ratePerSecond;
          const bin = bins[issued % FOREGROUND]!;
          const op: Promise<void> = call(bin, Math.floor(issued / FOREGROUND)).then(
            () => {
              const latencyMs = performance.now() - dueAt;
              histogram.recordValue(Math.max(1, Math.round(latencyMs * 1000)));
              observe?.(dueAt, latencyMs);
              completed++;
            },
            () => {
              errors++;
            },
          );
          inFlight.add(op);
          void op.finally(() => inFlight.delete(op));
        }
        await sleep(2);
      }
      await Promise.all(inFlight);
      return { histogram, completed, errors, durationMs: performance.now() - startedAt };
    },
  };
}
