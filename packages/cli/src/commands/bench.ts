// `binring bench`: how fast is this cluster? Runs closed-loop workloads
// through the SDK against the cluster named by --config, one cell per
// workload and concurrency, and prints ops/s and latency percentiles. It
// writes: every workload key is a bin named --bin-prefix + "bin0".."bin999",
// with string "k" and list "l", left in place afterwards.
import { BinClient } from "@binring/client";
import {
  binLoadTarget,
  KEYSPACE,
  type Measurement,
  measure,
  preload,
  type WorkloadName,
  workloadOperation,
} from "@binring/load";
import { parseDuration, parseFlags, parsePositiveInt } from "../args.js";
import { CliError } from "../cli-error.js";
import { defineCommand } from "../command.js";
import { ProgressLine } from "../progress-line.js";
import { textTable } from "../text-table.js";

/** The workloads by their CLI names (the data commands' spelling). */
const WORKLOAD_NAMES: Record<string, WorkloadName> = {
  set: "set",
  get: "get",
  "list-append": "listAppend",
  mixed: "mixed",
};

/** No more workers than this per cell: one process's event loop is the limit well before. */
const MAX_CONCURRENCY = 4096;

export const BENCH = defineCommand({
  name: "bench",
  summary: "measure the cluster: ops/s and p50/p99/p99.9 latency per workload and concurrency",
  synopsis: "[options]",
  flags: {
    config: { type: "string", value: "FILE", default: "binring.json", description: "the cluster file" },
    workloads: {
      type: "string",
      value: "LIST",
      default: Object.keys(WORKLOAD_NAMES).join(","),
      description: "comma-separated workloads to run",
    },
    concurrency: {
      type: "string",
      value: "LIST",
      default: "1,64",
      description: `comma-separated numbers of operations in flight (each at most ${MAX_CONCURRENCY})`,
    },
    duration: { type: "string", value: "DURATION", default: "10s", description: "measured time per cell" },
    warmup: {
      type: "string",
      value: "DURATION",
      default: "2s",
      description: "unmeasured time before each cell",
    },
    "bin-prefix": {
      type: "string",
      value: "P",
      default: "binring-bench/",
      description: "the bins written are P + bin0 ... bin999 (left in place)",
    },
    json: { type: "boolean", description: "print the numbers as JSON instead of a table" },
  },
  example: "binring bench --workloads set,get --concurrency 16 --duration 10s --json",
});

interface Cell extends Measurement {
  workload: string;
  concurrency: number;
}

export async function benchCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseFlags(BENCH, args);
  if (positionals.length > 0)
    throw new CliError(`binring bench: unexpected argument ${JSON.stringify(positionals[0])}`);
  const workloads = parseList("workloads", values.workloads, (name) => {
    if (!(name in WORKLOAD_NAMES))
      throw new CliError(
        `--workloads: unknown workload ${JSON.stringify(name)}; choose from ${Object.keys(WORKLOAD_NAMES).join(", ")}`,
      );
    return name;
  });
  const concurrencies = parseList("concurrency", values.concurrency, (text) => {
    const n = parsePositiveInt("concurrency", text);
    if (n > MAX_CONCURRENCY)
      throw new CliError(`--concurrency must be at most ${MAX_CONCURRENCY}, got ${JSON.stringify(text)}`);
    return n;
  });
  const durationMs = parseDuration("duration", values.duration);
  const warmupMs = parseDuration("warmup", values.warmup);
  const prefix = values["bin-prefix"];

  const client = await BinClient.fromConfig(values.config);
  try {
    const target = binLoadTarget(client, prefix);
    const cells = workloads.length * concurrencies.length;
    process.stderr.write(
      `binring bench: ${cells} cells of ${warmupMs / 1000} s warm-up + ${durationMs / 1000} s on ${client.ring.members.length} backends; writing bins ${JSON.stringify(`${prefix}bin0`)} to ${JSON.stringify(`${prefix}bin${KEYSPACE - 1}`)}\n`,
    );
    // Gets then hit, and a cluster that cannot take writes is reported before any cell runs.
    await preload(target).catch((error: unknown) => {
      throw new CliError(`binring bench: cannot write to the cluster: ${(error as Error).message}`, 1);
    });
    const results: Cell[] = [];
    const line = new ProgressLine(process.stderr);
    for (const workload of workloads) {
      for (const concurrency of concurrencies) {
        line.transient(`  measuring ${workload} at concurrency ${concurrency}`, results.length / cells);
        const measured = await measure(workloadOperation(target, WORKLOAD_NAMES[workload]!), {
          concurrency,
          durationMs,
          warmupMs,
        });
        const cell = { workload, concurrency, ...measured };
        results.push(cell);
        line.log(`  ${renderProgress(cell)}`);
      }
    }
    process.stdout.write(
      values.json
        ? `${JSON.stringify({ backends: client.ring.members.length, durationMs, warmupMs, results })}\n`
        : `${renderTable(results)}\n`,
    );
    const errors = results.reduce((sum, cell) => sum + cell.errors, 0);
    if (errors > 0)
      throw new CliError(`binring bench: ${errors} operations failed (see the errors column)`, 1);
  } finally {
    await client.close();
  }
}

/** A comma-separated list, each item checked by `parse`; empty items are refused. */
function parseList<T>(flag: string, text: string, parse: (item: string) => T): T[] {
  const items = text.split(",").map((item) => item.trim());
  if (items.some((item) => item === ""))
    throw new CliError(`--${flag} must be a comma-separated list, got ${JSON.stringify(text)}`);
  return items.map(parse);
}

const fmtOps = (n: number) => Math.round(n).toLocaleString("en-US");
const fmtMs = (n: number) => n.toFixed(2);

function renderProgress(cell: Cell): string {
  return `${cell.workload} c=${cell.concurrency}: ${fmtOps(cell.opsPerSecond)} ops/s, p50 ${fmtMs(cell.p50Ms)} ms, p99 ${fmtMs(cell.p99Ms)} ms, ${cell.errors} errors`;
}

function renderTable(cells: Cell[]): string {
  return textTable([
    ["WORKLOAD", "CONCURRENCY", "OPS/S", "P50 MS", "P99 MS", "P99.9 MS", "ERRORS"],
    ...cells.map((cell) => [
      cell.workload,
      String(cell.concurrency),
      fmtOps(cell.opsPerSecond),
      fmtMs(cell.p50Ms),
      fmtMs(cell.p99Ms),
      fmtMs(cell.p999Ms),
      String(cell.errors),
    ]),
  ]);
}
