// The network half of the fault schedule (fault-schedule.ts): which network
// faults the failure model allows in a given state, how each is drawn, and
// what each impairs. Pure, like the rest of the schedule.
//
// A network fault impairs the backends it touches, the same way a kill or a
// pause does: cut off or slowed, a backend may be declared dead and repaired,
// or its writes wait. So it counts toward the 2 impaired backends, and is
// injected only while the cluster is settled. Which faults are in the model:
// - a full partition of one backend or one keeper (from every process and the
//   clients): to the others it looks like a pause, except that it keeps running;
// - the clients cut from 1 or 2 backends that the keepers still see ready;
// - a one-way cut between two processes, a backend at least one of them;
// - a slow, lossy link between two of clients, backends and keepers.
// A keeper cut from the other keepers runs on with the view it had: cut from
// everything, it takes every backend for silent and declares up to two dead
// (as many as it thinks the model allows), and once it is back those stale
// verdicts reach the others, which empty and refill those backends. So a
// keeper is partitioned only in a settled cluster with no backend impaired,
// and no backend fault follows until it is back and the cluster has settled
// again (holdsBackendFaults): its two never add to another two.
// Keepers cut or slowed between themselves while both reach the backends
// stay live to each other through the backends' sightings and keep their
// slices (ARCHITECTURE.md, "The failure model"): that is "keeper-partition",
// drawn only when the run asks for it.
import type { NetworkNode, SlowLink } from "./network-control.js";
import type { Random } from "./random.js";

/** Which faults a run injects: "process" (kills and pauses), "network" (the partitions above), "keeper-partition", "membership" (fault-schedule.ts). */
export type FaultKind = "process" | "network" | "keeper-partition" | "membership";

export const FAULT_KINDS: readonly FaultKind[] = ["process", "network", "keeper-partition", "membership"];

export type PlannedNetworkFault =
  /** Cut from every other node, both ways. */
  | { action: "partition"; target: NetworkNode; downMs: number }
  /** The clients cut from these backends, both ways. */
  | { action: "cut-clients"; targets: number[]; downMs: number }
  /** What `from` sends to `to` is dropped; the other direction is delivered. */
  | { action: "cut-one-way"; from: NetworkNode; to: NetworkNode; downMs: number }
  /** Both directions between the two capped and lossy. */
  | { action: "slow-link"; between: [NetworkNode, NetworkNode]; link: SlowLink; downMs: number }
  /** One keeper cut from the other keepers, both ways; every keeper still reaches every backend. */
  | { action: "partition-keepers"; target: number; downMs: number };

export type NetworkAction = PlannedNetworkFault["action"];

/** What the schedule knows about the run's state, as network faults see it. */
export interface NetworkScheduleInput {
  /** Backends that can take a fault: not impaired. */
  healthy: readonly number[];
  /** How many backends are impaired now. */
  impaired: number;
  /** How many more backends may be impaired. */
  room: number;
  settled: boolean;
  /** Keepers not impaired. */
  liveKeepers: readonly number[];
  kinds: ReadonlySet<FaultKind>;
}

/** Bandwidth of a slow link, drawn on a log scale between these. */
const SLOW_KBIT_MIN = 64;
const SLOW_KBIT_MAX = 1024;
const LOSS_PERCENT_MIN = 1;
const LOSS_PERCENT_MAX = 20;

/** A network fault with a weight, planned only if drawn. */
export type NetworkChoice = [NetworkAction, number, (random: Random, downMs: number) => PlannedNetworkFault];

/** The network faults the model allows now, each with its weight (none when the run injects no network faults). */
export function networkChoices(input: NetworkScheduleInput): NetworkChoice[] {
  const network = input.kinds.has("network");
  const keeperPartition = input.kinds.has("keeper-partition");
  const backendOk = input.settled && input.room > 0 && input.healthy.length > 0;
  const keeperOk = input.liveKeepers.length > 1;
  const keeperCutOk = keeperOk && input.settled && input.impaired === 0;
  const partitionTargets: [NetworkNode[], number][] = [
    [input.healthy.map((i) => backend(i)), backendOk ? 2 : 0],
    [input.liveKeepers.map((i) => keeper(i)), keeperCutOk ? 1 : 0],
  ];
  const partitionWeight = partitionTargets.reduce((sum, [, weight]) => sum + weight, 0);
  const oneWay = pairs(input, false, keeperPartition).flatMap(([a, b]) => [
    [a, b],
    [b, a],
  ]);
  const slow = pairs(input, true, keeperPartition);
  const choices: NetworkChoice[] = [
    [
      "partition",
      network ? partitionWeight : 0,
      (random, downMs) => ({
        action: "partition",
        target: random.pick(random.weighted(partitionTargets)),
        downMs,
      }),
    ],
    [
      "cut-clients",
      network && backendOk ? 2 : 0,
      (random, downMs) => {
        const count = random.int(1, Math.min(2, input.room, input.healthy.length));
        return { action: "cut-clients", targets: pickDistinct(random, input.healthy, count), downMs };
      },
    ],
    [
      "cut-one-way",
      network && oneWay.length > 0 ? 2 : 0,
      (random, downMs) => {
        const [from, to] = random.pick(oneWay);
        return { action: "cut-one-way", from: from!, to: to!, downMs };
      },
    ],
    [
      "slow-link",
      network && slow.length > 0 ? 2 : 0,
      (random, downMs) => ({
        action: "slow-link",
        between: random.pick(slow),
        link: {
          kbitPerSecond: Math.round(SLOW_KBIT_MIN * (SLOW_KBIT_MAX / SLOW_KBIT_MIN) ** random.between(0, 1)),
          lossPercent: random.int(LOSS_PERCENT_MIN, LOSS_PERCENT_MAX),
        },
        downMs,
      }),
    ],
    [
      "partition-keepers",
      keeperPartition && keeperCutOk ? 2 : 0,
      (random, downMs) => ({ action: "partition-keepers", target: random.pick(input.liveKeepers), downMs }),
    ],
  ];
  return choices;
}

/**
 * The backends and keepers a network fault impairs, and the backends the
 * keepers will declare dead. A keeper is impaired only when cut or slowed
 * from other keepers (they take it for dead); one whose link to a backend is
 * cut still does its work.
 */
export function networkImpairs(fault: PlannedNetworkFault): {
  backends: number[];
  keepers: number[];
  /** Cut from their keepers: impaired until declared dead, like a killed backend. */
  cutOff: number[];
} {
  const nodes = faultNodes(fault);
  const backends = indices(nodes, "backend");
  const keepers = indices(nodes, "keeper");
  const fromKeepers =
    fault.action === "partition" || fault.action === "partition-keepers" || keepers.length === 2;
  return {
    backends,
    keepers: fromKeepers ? keepers : [],
    cutOff: fault.action === "partition" ? backends : [],
  };
}

/**
 * Whether a fault cuts a keeper from the other keepers: until it is back and
 * its stale verdicts have settled, no backend fault may add to them.
 */
export function holdsBackendFaults(fault: PlannedNetworkFault): boolean {
  return networkImpairs(fault).keepers.length > 0;
}

/** The nodes a network fault touches. */
export function faultNodes(fault: PlannedNetworkFault): NetworkNode[] {
  switch (fault.action) {
    case "partition":
      return [fault.target];
    case "cut-clients":
      return fault.targets.map((i) => backend(i));
    case "cut-one-way":
      return [fault.from, fault.to];
    case "slow-link":
      return fault.between;
    case "partition-keepers":
      return [keeper(fault.target)];
  }
}

/**
 * Pairs of nodes a one-way cut (without clients) or a slow link (with them)
 * may join: the backends in a pair must fit the room left and the cluster be
 * settled; two keepers only with keeper-partition, and only while another
 * keeper stays live.
 */
function pairs(
  input: NetworkScheduleInput,
  withClients: boolean,
  keeperPairs: boolean,
): [NetworkNode, NetworkNode][] {
  const backendsOk = input.settled ? input.healthy : [];
  const nodes: NetworkNode[] = [
    ...(withClients ? (["clients"] as const) : []),
    ...backendsOk.map((i) => backend(i)),
    ...input.liveKeepers.map((i) => keeper(i)),
  ];
  const result: [NetworkNode, NetworkNode][] = [];
  for (const [i, a] of nodes.entries()) {
    for (const b of nodes.slice(i + 1)) {
      const pair = [a, b];
      const backends = indices(pair, "backend").length;
      const keepers = indices(pair, "keeper").length;
      if (backends > input.room) continue;
      if (
        keepers === 2 &&
        (!keeperPairs || input.liveKeepers.length < 3 || !input.settled || input.impaired > 0)
      )
        continue;
      // A link that touches no backend and no two keepers (clients and a keeper) breaks nothing in the cluster.
      if (backends === 0 && keepers < 2) continue;
      result.push([a, b]);
    }
  }
  return result;
}

function pickDistinct(random: Random, items: readonly number[], count: number): number[] {
  const left = [...items];
  return Array.from({ length: count }, () => left.splice(random.int(0, left.length - 1), 1)[0]!);
}

function indices(nodes: readonly NetworkNode[], kind: "backend" | "keeper"): number[] {
  return nodes.flatMap((node) => (node.startsWith(`${kind}-`) ? [Number(node.slice(kind.length + 1))] : []));
}

const backend = (i: number): NetworkNode => `backend-${i}`;
const keeper = (i: number): NetworkNode => `keeper-${i}`;
