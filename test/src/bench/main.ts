// `npm run bench [-- NAME ...] [--quick]`: runs the named benchmarks (all when
// none is named), prints markdown tables and writes them to bench/results/.
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { REPO_ROOT } from "../support/binring-process.js";
import { backendBench } from "./backend-bench.js";
import { binsBench } from "./bins-bench.js";
import { placementBench } from "./placement-bench.js";
import { repairBench } from "./repair-bench.js";
import { type BenchSettings, progress } from "./settings.js";

const BENCHMARKS: Record<string, (settings: BenchSettings) => Promise<string>> = {
  placement: placementBench,
  backend: backendBench,
  bins: binsBench,
  repair: repairBench,
};

function machine(): string {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  return `${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
}

async function main(argv: string[]): Promise<void> {
  const quick = argv.includes("--quick");
  const names = argv.filter((arg) => !arg.startsWith("--"));
  for (const name of names) {
    if (!BENCHMARKS[name])
      throw new Error(
        `unknown benchmark ${JSON.stringify(name)}; choose from ${Object.keys(BENCHMARKS).join(", ")}`,
      );
  }
  const settings: BenchSettings = { quick, durationMs: quick ? 1000 : 5000, warmupMs: quick ? 200 : 1000 };
  const resultsDir = `${REPO_ROOT}bench/results`;
  mkdirSync(resultsDir, { recursive: true });
  for (const name of names.length > 0 ? names : Object.keys(BENCHMARKS)) {
    progress(`${name}: starting${quick ? " (quick)" : ""}`);
    const report = `# ${name} benchmark\n\nMachine: ${machine()}. Each cell: ${settings.durationMs / 1000} s after ${settings.warmupMs / 1000} s warm-up.\n\n${await BENCHMARKS[name]!(settings)}`;
    process.stdout.write(`${report}\n`);
    if (!quick) writeFileSync(`${resultsDir}/${name}.md`, report);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`bench: ${(error as Error).message}\n`);
  process.exit(1);
});
