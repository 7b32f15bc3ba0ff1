// The rebalance benchmark's last section: the paced foreground beside plain
// CPU load of the cores the paced adds took over idle, which tells how much of
// a move's cost to the foreground's tail that much CPU alone would have.
import type { Binring } from "./contenders.js";
import { CpuBurner } from "./cpu-burner.js";
import { fmt, table } from "./measure.js";
import type { Foreground } from "./rebalance-foreground.js";
import { cpuReadings, idle, type Measurement, measured, median } from "./rebalance-measure.js";
import { progress } from "./settings.js";

/**
 * The plain CPU loads run beside the paced foreground after the moves, each
 * taking the cores the paced adds took over idle (median), spread over these
 * many processes, each as many times as the moves ran, in turn. The spread
 * matters on these cores: in trials of 0.3 cores beside the paced load, 8
 * processes raised its p99 ×1.74 and ×2.46 where 3 raised it ×1.43 and ×1.18.
 * A move's extra CPU is mostly the moving backend's, the rest spread over the
 * redis-servers and keepers: somewhere between the two spreads.
 */
const BURN_SPREADS = [2, 8];

/** The paced foreground idle, then beside plain CPU load of `cores` for as long. */
export interface Burn {
  wantedCores: number;
  processes: number;
  cores: number;
  idle: Measurement;
  during: Measurement;
}

async function burn(
  binring: Binring,
  foreground: Foreground,
  cores: number,
  processes: number,
  ms: number,
): Promise<Burn> {
  const idleLoad = await idle(binring, foreground, ms);
  const cpuBefore = cpuReadings(binring);
  const burner = await CpuBurner.start(cores, processes);
  const startedAt = performance.now();
  const endAt = startedAt + ms;
  const raw = await foreground.run(() => performance.now() >= endAt);
  const taken = await burner.stop();
  const during = measured(raw, cpuBefore, cpuReadings(binring), performance.now() - startedAt);
  progress(
    `rebalance: beside ${cores.toFixed(2)} cores of plain CPU load over ${processes} processes (${taken.toFixed(2)} taken): p99 ${fmt.ms(during.p99Ms)} ms`,
  );
  return { wantedCores: cores, processes, cores: taken, idle: idleLoad, during };
}

/** Every spread `runs` times, in turn, at `cores`. */
export async function plainLoads(
  binring: Binring,
  foreground: Foreground,
  cores: number,
  runs: number,
  ms: number,
): Promise<Burn[]> {
  const burns: Burn[] = [];
  for (let r = 0; r < runs; r++)
    for (const processes of BURN_SPREADS) burns.push(await burn(binring, foreground, cores, processes, ms));
  return burns;
}

/** The section: the plain loads against the paced adds' p99 ratios (`pacedAdds`, sorted). */
export function plainLoadMarkdown(burns: Burn[], cores: number, pacedAdds: number[], ms: number): string {
  const ratios = (processes: number) =>
    burns
      .filter((b) => b.processes === processes)
      .map((b) => b.during.p99Ms / b.idle.p99Ms)
      .sort((a, b) => a - b);
  return `### The move's CPU alone

The paced adds took a median of ${cores.toFixed(2)} cores over idle. The same paced foreground then
ran beside plain CPU load of that many cores for ${fmt.ops(ms / 1000)} s: child processes that spin
a share of every few milliseconds, spread over ${BURN_SPREADS.join(" or ")} processes, each load against
an idle measured just before it: what a move of that cost would do to the foreground if its work
cost nothing beyond its cores. The spread matters: many light processes wake up and take a core
from the foreground more often than a few heavy ones. A move's extra CPU is mostly the moving
backend's, the rest spread over the redis-servers and keepers (the tables above). The machine's
busy cores say how near all of them each load came; the paced load alone keeps most of them busy,
since a call at low concurrency costs several times its share at high.
Median of the plain loads: ${BURN_SPREADS.map((n) => `over ${n} processes **×${median(ratios(n)).toFixed(2)}** of idle`).join(", ")}; the paced adds **×${median(pacedAdds).toFixed(2)}**.

${table(
  [
    "plain CPU load",
    "processes",
    "cores taken (measured)",
    "cluster cores during (idle)",
    "machine cores busy during (idle)",
    "p99 during (ms)",
    "idle p99 (ms)",
    "p99 vs idle",
    "errors",
  ],
  burns.map((b) => [
    `${b.wantedCores.toFixed(2)} cores`,
    b.processes,
    b.cores.toFixed(2),
    `${b.during.cores.toFixed(2)} (${b.idle.cores.toFixed(2)})`,
    `${b.during.machineCores.toFixed(2)} (${b.idle.machineCores.toFixed(2)})`,
    fmt.ms(b.during.p99Ms),
    fmt.ms(b.idle.p99Ms),
    fmt.times(b.during.p99Ms, b.idle.p99Ms),
    b.during.errors,
  ]),
)}
`;
}
