// Scrapes a /metrics endpoint and reads its samples with a Prometheus text
// parser (parse-prometheus-text-format), never with patterns over the text.
import parsePrometheusTextFormat, { type MetricFamily } from "parse-prometheus-text-format";

export type Scrape = MetricFamily[];

/**
 * Fetches and parses one exposition. The parser folds a histogram with labels
 * into one label-less series (it keeps only an unlabelled _count and _sum), so
 * histogram families are read as untyped: each of their samples then comes
 * back as it is, `NAME_bucket`, `NAME_sum` and `NAME_count` with its labels.
 */
export async function scrape(address: string): Promise<Scrape> {
  const response = await fetch(`http://${address}/metrics`);
  if (response.status !== 200) throw new Error(`GET ${address}/metrics answered ${response.status}`);
  return parseExposition(await response.text());
}

/** Parses one exposition, histograms read as untyped (see scrape). */
export function parseExposition(text: string): Scrape {
  const lines = text
    .split("\n")
    .filter((line) => !(line.startsWith("# TYPE ") && line.endsWith(" histogram")));
  return parsePrometheusTextFormat(lines.join("\n"));
}

/** The value of every sample named `name` whose labels include `labels`, summed (0 when none). */
export function total(families: Scrape, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const family of families) {
    if (family.name !== name) continue;
    for (const sample of family.metrics) {
      const matches = Object.entries(labels).every(([label, wanted]) => sample.labels?.[label] === wanted);
      if (matches && sample.value !== undefined) sum += Number(sample.value);
    }
  }
  return sum;
}

/** The summed value of `name` across several scrapes (one per process). */
export function totalOver(scrapes: Scrape[], name: string, labels: Record<string, string> = {}): number {
  return scrapes.reduce((sum, families) => sum + total(families, name, labels), 0);
}
