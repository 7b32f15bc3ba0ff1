// Closed-loop load: `concurrency` workers each run one operation after another
// for a fixed time window, after a warm-up; latencies go into an HDR histogram
// (hdr-histogram-js), never a hand-rolled percentile.
import * as hdr from "hdr-histogram-js";

export interface Measurement {
  opsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  errors: number;
}

export interface MeasureOptions {
  concurrency: number;
  durationMs: number;
  warmupMs: number;
}

/** Latencies in µs, 1 µs to 60 s, 3 significant digits. */
export function newHistogram(): hdr.Histogram {
  return hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 60_000_000,
    numberOfSignificantValueDigits: 3,
  });
}

/** What one process measured: the histogram travels encoded, so processes can merge theirs. */
export interface RawMeasurement {
  histogram: hdr.Histogram;
  completed: number;
  errors: number;
  durationMs: number;
}

/** Runs the closed loop and returns the raw histogram (the caller destroys it). */
export async function measureRaw(
  operation: (i: number) => Promise<unknown>,
  options: MeasureOptions,
): Promise<RawMeasurement> {
  const histogram = newHistogram();
  let counter = 0;
  let errors = 0;
  let completed = 0;
  const warmupEnds = performance.now() + options.warmupMs;
  // The window lasts durationMs, or longer (up to 10×) until every worker
  // completed two operations in it on average: a window shorter than the
  // operations it measures would count their completions by luck.
  const longestEnds = warmupEnds + 10 * options.durationMs;
  let ends = warmupEnds + options.durationMs;
  const stretching = (now: number) => now < longestEnds && completed < 2 * options.concurrency;
  /** Whether a completion at `now` falls in the window, stretching the window to it when needed. */
  const inWindow = (now: number) => {
    if (now < ends) return true;
    if (!stretching(now)) return false;
    ends = now;
    return true;
  };
  // Throughput counts operations that complete inside the window, whenever
  // they started, so operations slower than the window still count; latency
  // includes every operation that completes after the warm-up, the slow
  // ones drained after the window included.
  const worker = async () => {
    while (performance.now() < ends || stretching(performance.now())) {
      const start = performance.now();
      try {
        await operation(counter++);
        const done = performance.now();
        if (done >= warmupEnds) {
          histogram.recordValue(Math.max(1, Math.round((done - start) * 1000)));
          if (inWindow(done)) completed++;
        }
      } catch {
        const done = performance.now();
        if (done >= warmupEnds && inWindow(done)) errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return { histogram, completed, errors, durationMs: ends - warmupEnds };
}

/** Summarises a histogram of µs latencies over a measured duration. */
export function summarise(raw: RawMeasurement): Measurement {
  return {
    opsPerSecond: raw.completed / (raw.durationMs / 1000),
    p50Ms: raw.histogram.getValueAtPercentile(50) / 1000,
    p99Ms: raw.histogram.getValueAtPercentile(99) / 1000,
    p999Ms: raw.histogram.getValueAtPercentile(99.9) / 1000,
    errors: raw.errors,
  };
}

export async function measure(
  operation: (i: number) => Promise<unknown>,
  options: MeasureOptions,
): Promise<Measurement> {
  const raw = await measureRaw(operation, options);
  const result = summarise(raw);
  raw.histogram.destroy();
  return result;
}
