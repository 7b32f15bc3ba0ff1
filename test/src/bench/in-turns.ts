// Several systems that run at once, measured in turns on the same cells, so
// drift on a shared machine falls on all of them alike: before a workload's
// first cell each system warms up on it, then every run measures each system
// once, the one that goes first rotating from run to run.
import { type Measurement, preload, type WorkloadName } from "@binring/load";
import { LoadProcesses, WARM_UP_RULE } from "./load-processes.js";
import { fmt, measurementCells, medianRun } from "./measure.js";
import { type BenchSettings, progress } from "./settings.js";
import { connect, type SystemSpec } from "./systems.js";

export interface Cell {
  workload: WorkloadName;
  concurrency: number;
}

export interface Turn {
  /** Names the system in results and progress lines. */
  name: string;
  load: LoadProcesses;
}

/**
 * A turn for each system: its keys preloaded, then one load process on it.
 * Each load's stop goes onto `stops`, to run before the systems' own.
 */
export async function startTurns(
  specs: readonly SystemSpec[],
  stops: (() => Promise<void>)[],
): Promise<Turn[]> {
  const turns: Turn[] = [];
  for (const spec of specs) {
    const client = connect(spec);
    await preload(client);
    await client.close();
    const load = await LoadProcesses.start(spec, 1);
    stops.push(() => load.stop());
    turns.push({ name: spec.name, load });
  }
  return turns;
}

export const cellName = (cell: Cell) => `${cell.workload} c=${cell.concurrency}`;

/** A row of a results file's "Every cell" table: the cell, what ran in it, and its numbers. */
export function everyCellRow(cell: Cell, system: string, m: Measurement): (string | number)[] {
  return [cell.workload, cell.concurrency, system, ...measurementCells(m)];
}

/** How the warm-up went, for a benchmark's description. */
export function warmUpRule(settings: BenchSettings): string {
  return settings.quick ? "runs unmeasured for one short window (--quick)" : WARM_UP_RULE;
}

/**
 * Measures every cell (in the order given: a workload's first cell follows its
 * warm-up) on every system; returns the median run of each, by cell name and
 * then system name. `bench` prefixes the progress lines.
 */
export async function measureInTurns(
  bench: string,
  turns: Turn[],
  cells: readonly Cell[],
  settings: BenchSettings,
): Promise<Map<string, Map<string, Measurement>>> {
  const results = new Map<string, Map<string, Measurement>>();
  const warmed = new Set<WorkloadName>();
  for (const cell of cells) {
    if (!warmed.has(cell.workload)) {
      warmed.add(cell.workload);
      for (const { name, load } of turns) {
        const tookMs = await load.warmUp(cell.workload, 64, settings.quick ? settings.durationMs : undefined);
        progress(`${bench}: ${name}, ${cell.workload}: warm after ${(tookMs / 1000).toFixed(0)} s`);
      }
    }
    const runs = new Map<string, Measurement[]>(turns.map(({ name }) => [name, []]));
    for (let run = 0; run < settings.runs; run++) {
      const first = run % turns.length;
      for (const { name, load } of [...turns.slice(first), ...turns.slice(0, first)]) {
        runs.get(name)!.push(
          await load.run({
            workload: cell.workload,
            concurrency: cell.concurrency,
            durationMs: settings.durationMs,
            warmupMs: settings.warmupMs,
          }),
        );
      }
    }
    const byName = new Map([...runs].map(([name, measured]) => [name, medianRun(measured)]));
    results.set(cellName(cell), byName);
    for (const [name, m] of byName)
      progress(
        `${bench}: ${cellName(cell)}, ${name}: ${fmt.ops(m.opsPerSecond)} ops/s, p50 ${fmt.ms(m.p50Ms)} ms, p99 ${fmt.ms(m.p99Ms)} ms`,
      );
  }
  return results;
}
