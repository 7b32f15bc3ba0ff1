// The markdown table helpers every benchmark shares, and the comparison of
// contenders against a baseline at one concurrency. The closed loop itself is
// @binring/load's.
import { type Measurement, type MeasureOptions, measure } from "@binring/load";

/** The run whose throughput is the median of several (odd counts pick the middle one). */
export function medianRun(runs: Measurement[]): Measurement {
  const sorted = [...runs].sort((a, b) => a.opsPerSecond - b.opsPerSecond);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** A markdown table. */
export function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

export const fmt = {
  ops: (n: number) => Math.round(n).toLocaleString("en-US"),
  ms: (n: number) => n.toFixed(2),
  /** "x0.42": how many times the baseline's value. */
  times: (a: number, b: number) => (b > 0 ? `×${(a / b).toFixed(a / b < 0.1 ? 3 : 2)}` : "–"),
  ratio: (a: number, b: number) => `${((a / b) * 100).toFixed(0)}%`,
};

/** A measurement's cells in a results table: ops/s, p50, p99 and p99.9 in ms, errors. */
export function measurementCells(m: Measurement): (string | number)[] {
  return [fmt.ops(m.opsPerSecond), fmt.ms(m.p50Ms), fmt.ms(m.p99Ms), fmt.ms(m.p999Ms), m.errors];
}

export const COMPARISON_HEADER = [
  "operation",
  "concurrency",
  "ops/s",
  "p50 ms",
  "p99 ms",
  "errors",
  "vs raw Redis",
];

/**
 * Measures every operation in turn at one concurrency, then returns table rows
 * (COMPARISON_HEADER) for each [contender, baseline] pair, with the ratio.
 */
export async function compareAt(
  concurrency: number,
  timing: Omit<MeasureOptions, "concurrency">,
  operations: Record<string, (i: number) => Promise<unknown>>,
  pairs: readonly (readonly [contender: string, baseline: string])[],
  onProgress: (name: string) => void,
): Promise<(string | number)[][]> {
  const results: Record<string, Measurement> = {};
  for (const [name, operation] of Object.entries(operations)) {
    onProgress(name);
    results[name] = await measure(operation, { ...timing, concurrency });
  }
  return pairs.flatMap(([contender, baseline]) =>
    [contender, baseline].map((name) => {
      const m = results[name]!;
      const ratio = name === contender ? fmt.ratio(m.opsPerSecond, results[baseline]!.opsPerSecond) : "100%";
      return [name, concurrency, fmt.ops(m.opsPerSecond), fmt.ms(m.p50Ms), fmt.ms(m.p99Ms), m.errors, ratio];
    }),
  );
}
