// `npm run bench [-- NAME ...] [--quick] [...]`: runs the named benchmarks (all
// when none is named), prints markdown, and writes one markdown file per
// benchmark plus its SVG charts and an index to the results directory.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { REPO_ROOT } from "../support/binring-process.js";
import { backendBench } from "./backend-bench.js";
import { ceilingBench } from "./ceiling-bench.js";
import { durabilityBench } from "./durability-bench.js";
import { failoverBench } from "./failover-bench.js";
import { describeMachine, NOISE_NOTE } from "./machine.js";
import { peersBench } from "./peers-bench.js";
import { placementBench } from "./placement-bench.js";
import { rebalanceBench } from "./rebalance-bench.js";
import { repairBench } from "./repair-bench.js";
import type { BenchResult } from "./result.js";
import { scaleBench } from "./scale-bench.js";
import { type BenchSettings, parseSettings, progress, USAGE } from "./settings.js";
import { throughputBench } from "./throughput-bench.js";
import { tlsBench } from "./tls-bench.js";

const BENCHMARKS: Record<string, { title: string; run: (settings: BenchSettings) => Promise<BenchResult> }> =
  {
    throughput: { title: "Throughput and latency vs Redis Cluster and raw Redis", run: throughputBench },
    failover: { title: "Failover under load vs Redis Cluster", run: failoverBench },
    scale: { title: "Scale: throughput with 3, 6, 12 backends", run: scaleBench },
    placement: { title: "Scale: placement and ring memory up to 300 backends", run: placementBench },
    repair: { title: "Scale: repair time vs data size", run: repairBench },
    rebalance: { title: "Rebalance: a backend added and one removed under load", run: rebalanceBench },
    backend: { title: "One backend over gRPC vs raw Redis", run: backendBench },
    durability: { title: "Durability: appendfsync always vs everysec", run: durabilityBench },
    peers: { title: "Peers: vs Redis with WAIT 2 and etcd, writes answered once copied", run: peersBench },
    tls: { title: "TLS: binring with mutual TLS vs plaintext", run: tlsBench },
    ceiling: {
      title: "Ceiling: binring's write pattern as a bare relay, beside binring and Redis with WAIT 2",
      run: ceilingBench,
    },
  };

/** Earlier names, kept so documented commands go on working: `bins` became part of `throughput`. */
const ALIASES: Record<string, string> = { bins: "throughput" };

function writeIndex(dir: string, machine: string): void {
  const files = new Set(readdirSync(dir));
  const lines = Object.entries(BENCHMARKS)
    .filter(([name]) => files.has(`${name}.md`))
    .map(([name, { title }]) => `- [${title}](${name}.md) — \`npm run bench -- ${name}\``);
  // Notes written by hand about a particular run (what was odd, what to read with care).
  if (files.has("NOTES.md")) lines.push("- [Notes on the last full run](NOTES.md)");
  writeFileSync(
    `${dir}/README.md`,
    `# Benchmark results

Written by \`npm run bench\` (every benchmark; about 30 minutes) or \`npm run bench -- NAME\`; the
newest run of each is kept. ${NOISE_NOTE}

Last run's machine: ${machine}.

${lines.join("\n")}
`,
  );
}

async function main(argv: string[]): Promise<void> {
  const resultsDir = `${REPO_ROOT}bench/results`;
  const parsed = await parseSettings(argv, resultsDir);
  const settings = parsed.settings;
  const names = [...new Set(parsed.names.map((name) => ALIASES[name] ?? name))];
  for (const name of names) {
    if (!BENCHMARKS[name])
      throw new Error(
        `unknown benchmark ${JSON.stringify(name)}; choose from ${Object.keys(BENCHMARKS).join(", ")}`,
      );
  }
  const machine = describeMachine();
  progress(`machine: ${machine}`);
  if (settings.outDir) mkdirSync(settings.outDir, { recursive: true });
  const started = performance.now();
  for (const name of names.length > 0 ? names : Object.keys(BENCHMARKS)) {
    const benchStarted = performance.now();
    progress(`${name}: starting${settings.quick ? " (quick)" : ""}`);
    const result = await BENCHMARKS[name]!.run(settings);
    const tookS = Math.round((performance.now() - benchStarted) / 1000);
    const report = `# ${BENCHMARKS[name]!.title}\n\nMachine: ${machine}. ${NOISE_NOTE} Took ${tookS} s${settings.quick ? " (--quick)" : ""}; re-run with \`npm run bench -- ${name}\`.\n\n${result.markdown}`;
    process.stdout.write(`${report}\n`);
    if (settings.outDir) {
      writeFileSync(`${settings.outDir}/${name}.md`, report);
      for (const [file, svg] of Object.entries(result.charts ?? {}))
        writeFileSync(`${settings.outDir}/${file}`, svg);
      writeIndex(settings.outDir, machine);
    }
    progress(`${name}: done in ${tookS} s`);
  }
  progress(`all done in ${Math.round((performance.now() - started) / 1000)} s`);
}

// Exiting runs the exit hooks that SIGKILL every process the benchmark started.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench: ${(error as Error).message}\nusage: ${USAGE}\n`);
    process.exit(1);
  },
);
