// `npm run bench -- placement`: how evenly the ring spreads bins, how many
// move when one backend joins or leaves, what building the ring costs in time
// and memory, and what zone-aware placement costs.
import { DEFAULT_VIRTUAL_NODES, HashRing } from "@binring/core";
import { fmt, table } from "./measure.js";
import type { BenchResult } from "./result.js";
import { progress } from "./settings.js";

const BINS = 100_000;

function backends(n: number): { id: string }[] {
  return Array.from({ length: n }, (_, i) => ({ id: `10.0.${i >> 8}.${i & 255}:7000` }));
}

function primaries(ring: HashRing, bins: string[]): string[] {
  return bins.map((bin) => ring.replicasFor(bin)[0]!);
}

/** Rings kept alive together, so one ring's bytes stand out of the GC noise. */
const RINGS_MEASURED = 10;

/**
 * Bytes (JS heap and typed-array buffers) one ring of n backends holds:
 * measured around building RINGS_MEASURED of them, after full GCs (node
 * --expose-gc) and a turn of the event loop, since array buffers are freed
 * after the GC that finds them dead.
 */
async function ringBytes(n: number): Promise<number | undefined> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return undefined;
  const members = backends(n);
  const used = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const memory = process.memoryUsage();
    return memory.heapUsed + memory.arrayBuffers;
  };
  const before = await used();
  const rings = Array.from({ length: RINGS_MEASURED }, () => new HashRing(members));
  const after = await used();
  for (const ring of rings) ring.replicasFor("keep every ring alive until measured");
  return (after - before) / RINGS_MEASURED;
}

export async function placementBench(): Promise<BenchResult> {
  const bins = Array.from({ length: BINS }, (_, i) => `bin-${i}`);
  const rows: (string | number)[][] = [];
  for (const n of [6, 30, 300]) {
    progress(`placement: ${n} backends`);
    const started = performance.now();
    const ring = new HashRing(backends(n));
    const buildMs = performance.now() - started;
    const lookupStarted = performance.now();
    const before = primaries(ring, bins);
    const lookupUs = ((performance.now() - lookupStarted) * 1000) / BINS;
    const load = new Map<string, number>();
    const replicaLoad = new Map<string, number>();
    for (const bin of bins) {
      ring.replicasFor(bin).forEach((id, i) => {
        if (i === 0) load.set(id, (load.get(id) ?? 0) + 1);
        replicaLoad.set(id, (replicaLoad.get(id) ?? 0) + 1);
      });
    }
    const maxOverMean = Math.max(...load.values()) / (BINS / n);
    const replicaMaxOverMean = Math.max(...replicaLoad.values()) / ((3 * BINS) / n);
    const joined = primaries(new HashRing(backends(n + 1)), bins);
    const left = primaries(new HashRing(backends(n).slice(1)), bins);
    const movedJoin = joined.filter((p, i) => p !== before[i]).length / BINS;
    const movedLeave = left.filter((p, i) => p !== before[i]).length / BINS;
    rows.push([
      n,
      maxOverMean.toFixed(3),
      replicaMaxOverMean.toFixed(3),
      `${(movedJoin * 100).toFixed(2)}% (1/N+1 = ${((100 / (n + 1)) * 1).toFixed(2)}%)`,
      `${(movedLeave * 100).toFixed(2)}% (1/N = ${(100 / n).toFixed(2)}%)`,
      fmt.ms(buildMs),
      lookupUs.toFixed(2),
      ((bytes) =>
        bytes === undefined
          ? "– (run node with --expose-gc)"
          : `${Math.round(bytes / 2 ** 10).toLocaleString("en-US")} KiB`)(await ringBytes(n)),
    ]);
  }
  const header = [
    "backends",
    "max/mean bins (primary)",
    "max/mean (all 3 copies)",
    "primaries moved on join",
    "primaries moved on leave",
    "ring build ms",
    "µs per placement",
    "ring memory",
  ];
  return {
    markdown: `## Placement of ${fmt.ops(BINS)} bins (${DEFAULT_VIRTUAL_NODES} virtual nodes per backend)\n\n${table(header, rows)}\n\n${zonedPlacement(bins)}`,
  };
}

/** Backends spread round-robin over three zones: balance, lookup cost, and repair planning for one death. */
function zonedPlacement(bins: string[]): string {
  const rows: (string | number)[][] = [];
  for (const n of [6, 30, 300]) {
    progress(`placement: ${n} backends in 3 zones`);
    const members = backends(n).map((member, i) => ({ ...member, zone: `zone-${i % 3}` }));
    const ring = new HashRing(members);
    const zoneOf = new Map(members.map((m) => [m.id, m.zone]));
    const started = performance.now();
    const placements = bins.map((bin) => ring.replicasFor(bin));
    const lookupUs = ((performance.now() - started) * 1000) / bins.length;
    const load = new Map<string, number>();
    let threeZones = 0;
    for (const replicas of placements) {
      for (const id of replicas) load.set(id, (load.get(id) ?? 0) + 1);
      if (new Set(replicas.map((id) => zoneOf.get(id))).size === 3) threeZones++;
    }
    const dead = members[0]!.id;
    const planStarted = performance.now();
    const changes = ring.changes(
      () => true,
      (id) => id !== dead,
    );
    const planMs = performance.now() - planStarted;
    rows.push([
      n,
      `${((threeZones / bins.length) * 100).toFixed(2)}%`,
      (Math.max(...load.values()) / ((3 * bins.length) / n)).toFixed(3),
      lookupUs.toFixed(2),
      changes.length,
      fmt.ms(planMs),
    ]);
  }
  const header = [
    "backends",
    "bins in 3 zones",
    "max/mean (all 3 copies)",
    "µs per placement",
    "ring changes on one death",
    "changes() ms",
  ];
  return `## Zone-aware placement (backends round-robin over 3 zones)\n\n${table(header, rows)}\n`;
}
