// Run settings shared by every benchmark (from the command line, with quick
// and full defaults in one place), and progress output on stderr.
import { parseArgs } from "node:util";
import { runCli } from "../support/binring-process.js";

export interface BenchSettings {
  /** Smoke run: tiny cells, fewer variants, nothing slow. */
  quick: boolean;
  /** Measured time of one throughput cell. @default 800 (quick 200) */
  durationMs: number;
  /** Warm-up before each cell. @default 200 (quick 50) */
  warmupMs: number;
  /** Runs per cell; the median run is reported. @default 3 (quick 1) */
  runs: number;
  /** Keepers of every binring cluster. @default what `binring dev` starts */
  keepers: number;
  /**
   * Offered load of the failover benchmark, writes per second (open loop);
   * below what binring's write path sustains today, so queueing does not
   * swamp the failover. @default 100
   */
  failoverRate: number;
  /** How long the failover load runs after the kill. @default 60000 (quick 5000) */
  failoverAfterMs: number;
  /** Where results go; quick runs write only when given. @default bench/results (full runs) */
  outDir: string | undefined;
}

export const USAGE =
  "npm run bench -- [NAME ...] [--quick] [--duration-ms N] [--runs N] [--keepers N] [--rate N] [--after-ms N] [--out DIR]";

function positive(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new Error(`--${flag} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

/** How many keepers `binring dev` starts, read from its usage line so the benchmark follows it. */
export async function devKeepers(): Promise<number> {
  const { stdout, stderr } = await runCli(["--help"]);
  const match = /binring dev .*--keepers (\d+)/.exec(stdout + stderr);
  if (!match) throw new Error("cannot read the default keeper count from `binring --help`; pass --keepers N");
  return Number(match[1]);
}

export async function parseSettings(
  argv: string[],
  resultsDir: string,
): Promise<{ names: string[]; settings: BenchSettings }> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      quick: { type: "boolean" },
      "duration-ms": { type: "string" },
      runs: { type: "string" },
      keepers: { type: "string" },
      rate: { type: "string" },
      "after-ms": { type: "string" },
      out: { type: "string" },
    },
  });
  const quick = values.quick ?? false;
  const settings: BenchSettings = {
    quick,
    durationMs: positive("duration-ms", values["duration-ms"], quick ? 200 : 800),
    warmupMs: quick ? 50 : 200,
    runs: positive("runs", values.runs, quick ? 1 : 3),
    keepers: values.keepers === undefined ? await devKeepers() : positive("keepers", values.keepers, 1),
    failoverRate: positive("rate", values.rate, 100),
    failoverAfterMs: positive("after-ms", values["after-ms"], quick ? 5000 : 60_000),
    outDir: values.out ?? (quick ? undefined : resultsDir),
  };
  return { names: positionals, settings };
}

export function progress(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}
