// Which cluster the data under a `binring dev` directory belongs to. Each
// backend's Redis keeps its append-only file there across runs, and with it
// the keepers' record of the members and the bins placed by their addresses.
// Started again on other addresses (`--port-base 0` picks new ports every
// time) or with other counts, the keepers would refuse every backend as a
// stranger and placement would look for bins where they are not: a cluster
// that says it runs and serves nothing. So dev records what it ran as, and
// refuses a run that differs unless `--fresh` empties the data first.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface DevLayout {
  /** The --port-base it ran with; 0 when it took free ports. */
  portBase: number;
  backends: string[];
  keepers: string[];
}

const LAYOUT_FILE = "layout.json";

/** The Redis data directories under `dir`, one per backend that ran there. */
function redisDirectories(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /^redis-\d+$/.test(name))
    .map((name) => join(dir, name));
}

/** What the data under `dir` was written by; undefined when there is none. */
export function recordedLayout(dir: string): DevLayout | undefined {
  const file = join(dir, LAYOUT_FILE);
  if (redisDirectories(dir).length === 0 || !existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as DevLayout;
  } catch {
    return undefined;
  }
}

export function recordLayout(dir: string, layout: DevLayout): void {
  writeFileSync(join(dir, LAYOUT_FILE), `${JSON.stringify(layout, null, 2)}\n`);
}

/** Deletes every backend's data under `dir` and the record of whom it belonged to; certificates and logs stay. */
export function deleteClusterData(dir: string): void {
  for (const directory of redisDirectories(dir)) rmSync(directory, { recursive: true, force: true });
  rmSync(join(dir, LAYOUT_FILE), { force: true });
}

/** Where a run with these flags listens (the launcher's fixed layout); undefined with free ports. */
export function plannedLayout(portBase: number, backends: number, keepers: number): DevLayout | undefined {
  if (portBase === 0) return undefined;
  const at = (port: number) => `127.0.0.1:${port}`;
  return {
    portBase,
    backends: Array.from({ length: backends }, (_, i) => at(portBase + i)),
    keepers: Array.from({ length: keepers }, (_, i) => at(portBase + 500 + i)),
  };
}

/** Why this run must not start on the recorded data, in one line; undefined when it may. */
export function layoutConflict(
  dir: string,
  recorded: DevLayout,
  planned: DevLayout | undefined,
): string | undefined {
  if (
    planned &&
    planned.backends.join() === recorded.backends.join() &&
    planned.keepers.join() === recorded.keepers.join()
  ) {
    return undefined;
  }
  const flags = `--port-base ${recorded.portBase} --backends ${recorded.backends.length} --keepers ${recorded.keepers.length}`;
  const ranAs =
    recorded.portBase === 0
      ? "on free ports (--port-base 0), which a new run cannot pick again"
      : `with ${flags}`;
  const rerun = recorded.portBase === 0 ? "" : `run it with ${flags}, `;
  return `${dir} holds the data of a cluster that ran ${ranAs}; on other addresses or counts its keepers would refuse every backend and its bins would be looked for in the wrong places: ${rerun}add --fresh to delete that data and start empty, or give another --dir`;
}
