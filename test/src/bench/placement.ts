// `node test/dist/bench/placement.js [VIRTUAL_NODES ...]`: tunes the ring's
// virtual node count. For each count (default: the library's) and cluster
// size, prints how evenly 100k bins spread, how many change placement when
// one backend joins or leaves (ideal: only the bins that backend gains or
// loses), and what building the ring and placing a bin cost.
import { DEFAULT_VIRTUAL_NODES, HashRing, RING_SIZE, type RingMember } from "@binring/core";
import { table } from "./measure.js";

const BINS = 100_000;
const BACKEND_COUNTS = [6, 30, 300];
const REPLICAS = 3;
/** Goal: no backend is primary for more than this multiple of the mean. */
const MAX_LOAD_OVER_MEAN = 1.25;
/** Goal: a join or leave moves at most this multiple of the ideal share of primaries. */
const MAX_MOVED_OVER_IDEAL = 1.2;

function backends(count: number): RingMember[] {
  return Array.from({ length: count }, (_, i) => ({ id: `10.0.${i >> 8}.${i & 255}:7000` }));
}

function placeAll(ring: HashRing, bins: readonly string[]): string[][] {
  return bins.map((bin) => ring.replicasFor(bin));
}

/** The most bins any backend holds, over the mean: primaries only, or every copy. */
function maxOverMean(placements: readonly string[][], backendCount: number, copies: number): number {
  const load = new Map<string, number>();
  for (const replicas of placements) {
    for (const id of replicas.slice(0, copies)) load.set(id, (load.get(id) ?? 0) + 1);
  }
  return Math.max(...load.values()) / ((placements.length * copies) / backendCount);
}

/** The largest stretch of the ring any backend is primary for, over the mean: balance without sampling noise. */
function exactMaxOverMean(ring: HashRing): number {
  const owned = new Map<string, number>();
  for (const { start, end, replicas } of ring.segments(undefined, 1)) {
    const length = end > start ? end - start : RING_SIZE - start + end;
    owned.set(replicas[0]!, (owned.get(replicas[0]!) ?? 0) + length);
  }
  return Math.max(...owned.values()) / (RING_SIZE / ring.members.length);
}

/** Fractions of bins whose primary, and whose replica set (order aside), differ. */
function moved(before: readonly string[][], after: readonly string[][]): { primaries: number; sets: number } {
  let primaries = 0;
  let sets = 0;
  before.forEach((replicas, i) => {
    const now = after[i]!;
    if (replicas[0] !== now[0]) primaries++;
    if (replicas.length !== now.length || replicas.some((id) => !now.includes(id))) sets++;
  });
  return { primaries: primaries / before.length, sets: sets / before.length };
}

/** "3.10% (0.96×)": a moved fraction and its ratio to the ideal. */
function share(fraction: number, ideal: number): string {
  return `${(fraction * 100).toFixed(2)}% (${(fraction / ideal).toFixed(2)}×)`;
}

function measure(virtualNodes: number, backendCount: number, bins: readonly string[]): (string | number)[] {
  const members = backends(backendCount + 1);
  const buildStarted = performance.now();
  const ring = new HashRing(members.slice(0, backendCount), { virtualNodes });
  const buildMs = performance.now() - buildStarted;
  const placeStarted = performance.now();
  const placements = placeAll(ring, bins);
  const placeUs = ((performance.now() - placeStarted) * 1000) / bins.length;
  // The newcomer takes its share from everyone; the leaver is the first backend.
  const join = moved(placements, placeAll(new HashRing(members, { virtualNodes }), bins));
  const leave = moved(
    placements,
    placeAll(new HashRing(members.slice(1, backendCount), { virtualNodes }), bins),
  );
  const primaryLoad = maxOverMean(placements, backendCount, 1);
  const worstMoved = Math.max(join.primaries * (backendCount + 1), leave.primaries * backendCount);
  const meetsGoals = primaryLoad <= MAX_LOAD_OVER_MEAN && worstMoved <= MAX_MOVED_OVER_IDEAL;
  return [
    virtualNodes,
    backendCount,
    primaryLoad.toFixed(3),
    exactMaxOverMean(ring).toFixed(3),
    maxOverMean(placements, backendCount, REPLICAS).toFixed(3),
    share(join.primaries, 1 / (backendCount + 1)),
    share(join.sets, Math.min(REPLICAS, backendCount + 1) / (backendCount + 1)),
    share(leave.primaries, 1 / backendCount),
    share(leave.sets, Math.min(REPLICAS, backendCount) / backendCount),
    buildMs.toFixed(1),
    placeUs.toFixed(2),
    meetsGoals ? "yes" : "no",
  ];
}

function virtualNodeCounts(args: readonly string[]): number[] {
  if (args.length === 0) return [DEFAULT_VIRTUAL_NODES];
  return args.map((arg) => {
    const count = Number(arg);
    if (!Number.isInteger(count) || count < 1) throw new Error(`not a virtual node count: ${arg}`);
    return count;
  });
}

const bins = Array.from({ length: BINS }, (_, i) => `bin-${i}`);
const rows: (string | number)[][] = [];
for (const virtualNodes of virtualNodeCounts(process.argv.slice(2))) {
  for (const backendCount of BACKEND_COUNTS) rows.push(measure(virtualNodes, backendCount, bins));
}
const header = [
  "virtual nodes",
  "backends",
  "max/mean primaries",
  "max/mean primary share of the ring (exact)",
  `max/mean all ${REPLICAS} copies`,
  "primaries moved on join (× 1/(N+1))",
  `replica sets changed on join (× ${REPLICAS}/(N+1))`,
  "primaries moved on leave (× 1/N)",
  `replica sets changed on leave (× ${REPLICAS}/N)`,
  "ring build ms",
  "µs per replicasFor",
  `goals met (≤ ${MAX_LOAD_OVER_MEAN}, ≤ ${MAX_MOVED_OVER_IDEAL}×)`,
];
process.stdout.write(`## Placement of ${BINS.toLocaleString("en-US")} bins\n\n${table(header, rows)}\n`);
