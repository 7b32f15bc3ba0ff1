// Counters and histograms for the data path, recorded without allocating.
// prom-client's own build a label object, check it and hash it on every
// observe(); with four observations per operation that was about 6% of a
// backend's busy time under a write load (bench/results/NOTES.md). Here each
// label set is looked up once (`series`), and recording is an array index and
// two additions. A registry reads them like prom-client's own metrics, in the
// same exposition (hot-metrics.test.ts compares the two).
import type { Metric, Registry } from "prom-client";

type Labels = Readonly<Record<string, string>>;

/** One label set of a HotHistogram. */
export class HistogramSeries {
  /** Per bucket (the last is +Inf): observations that fell in it, not yet cumulative. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += value;
    this.count++;
  }
}

/** One label set of a HotCounter. */
export class CounterSeries {
  value = 0;

  constructor(readonly labels: Labels) {}

  inc(by = 1): void {
    this.value += by;
  }
}

interface HotMetricOptions {
  name: string;
  help: string;
  registers: Registry[];
}

/** What a registry asks of a metric: its name, help, type and values. */
abstract class HotMetric<S extends { labels: Labels }> {
  readonly name: string;
  readonly help: string;
  readonly aggregator = "sum";
  abstract readonly type: string;
  readonly #series = new Map<string, S>();

  constructor(options: HotMetricOptions) {
    this.name = options.name;
    this.help = options.help;
    for (const registry of options.registers) registry.registerMetric(this as unknown as Metric);
  }

  /** The series of these labels, made (at zero) the first time. Keep it: looking it up is the slow part. */
  series(labels: Labels = {}): S {
    const key = JSON.stringify(labels);
    let series = this.#series.get(key);
    if (!series) {
      series = this.create(labels);
      this.#series.set(key, series);
    }
    return series;
  }

  protected abstract create(labels: Labels): S;
  protected abstract values(series: S): { metricName?: string; labels: Labels; value: number }[];

  async get() {
    const values = [...this.#series.values()].flatMap((series) => this.values(series));
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.#series.clear();
  }
}

export class HotHistogram extends HotMetric<HistogramSeries> {
  readonly type = "histogram";
  readonly #bounds: readonly number[];

  constructor(options: HotMetricOptions & { buckets: readonly number[] }) {
    super(options);
    this.#bounds = [...options.buckets].sort((a, b) => a - b);
  }

  protected create(labels: Labels): HistogramSeries {
    return new HistogramSeries(labels, this.#bounds);
  }

  protected values(series: HistogramSeries) {
    let cumulative = 0;
    const buckets = [...this.#bounds, "+Inf" as const].map((le, i) => {
      cumulative += series.counts[i]!;
      return {
        metricName: `${this.name}_bucket`,
        labels: { le: String(le), ...series.labels },
        value: cumulative,
      };
    });
    return [
      ...buckets,
      { metricName: `${this.name}_sum`, labels: series.labels, value: series.sum },
      { metricName: `${this.name}_count`, labels: series.labels, value: series.count },
    ];
  }
}

export class HotCounter extends HotMetric<CounterSeries> {
  readonly type = "counter";

  protected create(labels: Labels): CounterSeries {
    return new CounterSeries(labels);
  }

  protected values(series: CounterSeries) {
    return [{ labels: series.labels, value: series.value }];
  }
}
