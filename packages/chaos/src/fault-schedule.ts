// The fault schedule: which fault to inject next, chosen with the seeded
// random stream among the faults that keep the cluster inside its failure
// model. Pure: the runner passes what it knows, this decides.
//
// The model (docs/ARCHITECTURE.md, "The failure model"): any two backends may
// be down at once, provided repair completes between a death and the next one
// that could take a bin's last copy; at least one keeper must be alive. So:
// - a backend is impaired while it is killed or paused, and after it returns
//   until the keepers report it ready (a backend back on an empty Redis holds
//   nothing until it is filled); at most 2 are impaired at any moment;
// - a backend fault (kill or pause: a long pause is a death) is injected only
//   when the cluster is settled: no repair pending, every impaired backend
//   declared dead and re-replicated. Then even two more faults at once leave
//   every bin a complete copy;
// - a keeper is killed or paused only while another keeper runs and has
//   caught up: a keeper that has just restarted knows nothing of the cluster
//   until it hears a peer, so it is impaired until it reports every backend's
//   state (the backends' analogue: back, but not ready yet).
// Network faults (network-schedule.ts) follow the same rules. Every fault
// carries the time until its recovery (restart, resume or reconnect).
// Membership faults add a backend to the ring or remove one (binring admin):
// only when settled, and each counts as impaired until it is done (an added
// backend until it is ready, a removed one until it has left the ring); the
// ring stays between MIN_MEMBERS_AFTER_REMOVE and MAX_MEMBERS backends.
import type { BackendKill } from "./cluster-control.js";
import {
  type FaultKind,
  type NetworkAction,
  networkChoices,
  type PlannedNetworkFault,
} from "./network-schedule.js";
import type { Random } from "./random.js";

/** At most this many backends impaired at once: the promised failure tolerance. */
export const MAX_IMPAIRED_BACKENDS = 2;

/** A removal never leaves fewer members than this (the cluster refuses below 3; one more keeps kills possible). */
export const MIN_MEMBERS_AFTER_REMOVE = 4;
/** An addition never makes more members than this. */
export const MAX_MEMBERS = 8;

export type MembershipAction = "add-backend" | "remove-backend";

export interface ScheduleState {
  /** Backends ever started, by index; those in `retired` have left the ring. */
  backends: number;
  /** How many backends can ever be started: no backend is added past it. @default no bound */
  maxBackends?: number;
  /** Backends removed from the ring and stopped: never a target again. @default none */
  retired?: ReadonlySet<number>;
  keepers: number;
  /** Backends that are killed, paused, or back but not ready yet. */
  impairedBackends: ReadonlySet<number>;
  /** Keepers killed or paused, or back but not caught up yet (see keeper-status.ts, ClusterHealth.caughtUp). */
  impairedKeepers: ReadonlySet<number>;
  /** No repair pending and every impaired backend is declared dead (see keeper-status.ts isSettled). */
  settled: boolean;
  /** Which faults the run injects. @default process faults only */
  kinds?: ReadonlySet<FaultKind>;
  /** The backends run on the in-memory store: a kill is of the backend alone, and it returns empty. @default false */
  inMemory?: boolean;
  /**
   * Network faults injected so far. One the model allows now that is not
   * among them is drawn before any other fault, so even a short run covers
   * every kind. @default none
   */
  injected?: ReadonlySet<NetworkAction | MembershipAction>;
}

export type PlannedProcessFault =
  | { action: "kill-backend"; targets: number[]; how: BackendKill[]; downMs: number[] }
  | { action: "pause-backend"; target: number; pauseMs: number }
  | { action: "kill-keeper"; target: number; downMs: number }
  | { action: "pause-keeper"; target: number; pauseMs: number };

export type PlannedMembershipFault = { action: "add-backend" } | { action: "remove-backend"; target: number };

export type PlannedFault = PlannedProcessFault | PlannedNetworkFault | PlannedMembershipFault;

export interface ScheduleTiming {
  /** Mean time between faults; recoveries are drawn around it. */
  faultEveryMs: number;
}

/** Longest pause of a backend: past 3 s keepers declare it dead, so both sides of that line are covered. */
const MAX_BACKEND_PAUSE_MS = 6000;
/** Keeper pauses stay short: long ones are the same as kills. */
const MAX_KEEPER_PAUSE_MS = 4000;

/** The next fault, or undefined when none fits the model right now. */
export function nextFault(
  state: ScheduleState,
  random: Random,
  timing: ScheduleTiming,
): PlannedFault | undefined {
  const retired = state.retired ?? new Set<number>();
  const members = range(state.backends).filter((i) => !retired.has(i));
  const healthy = members.filter((i) => !state.impairedBackends.has(i));
  const room = MAX_IMPAIRED_BACKENDS - [...state.impairedBackends].filter((i) => !retired.has(i)).length;
  const backendFaults = state.settled && room > 0 && healthy.length > 0;
  const liveKeepers = range(state.keepers).filter((i) => !state.impairedKeepers.has(i));
  const keeperFaults = liveKeepers.length > 1;
  const kinds = state.kinds ?? new Set<FaultKind>(["process"]);
  const processes = kinds.has("process");
  const network = networkChoices({
    healthy,
    impaired: state.impairedBackends.size,
    room,
    settled: state.settled,
    liveKeepers,
    kinds,
  });
  const membershipFaults = kinds.has("membership") && backendFaults;
  const membership: [MembershipAction, number][] = [
    [
      "add-backend",
      membershipFaults && members.length < MAX_MEMBERS && state.backends < (state.maxBackends ?? Infinity)
        ? 1
        : 0,
    ],
    ["remove-backend", membershipFaults && members.length > MIN_MEMBERS_AFTER_REMOVE ? 1 : 0],
  ];
  const uncovered = [...network, ...membership].filter(
    ([action, weight]) => weight > 0 && !state.injected?.has(action),
  );
  const choices: [PlannedFault["action"] | "double-kill", number][] =
    uncovered.length > 0
      ? uncovered.map(([action, weight]): [NetworkAction | MembershipAction, number] => [action, weight])
      : [
          ["kill-backend", processes && backendFaults ? 4 : 0],
          ["double-kill", processes && backendFaults && room >= 2 && healthy.length >= 2 ? 1 : 0],
          ["pause-backend", processes && backendFaults ? 2 : 0],
          ["kill-keeper", processes && keeperFaults ? 2 : 0],
          ["pause-keeper", processes && keeperFaults ? 1 : 0],
          ...network.map(([action, weight]): [NetworkAction, number] => [action, weight]),
          ...membership,
        ];
  if (choices.every(([, weight]) => weight === 0)) return undefined;
  const downMs = () => Math.round(random.between(500, 2 * timing.faultEveryMs));
  const how = (): BackendKill =>
    state.inMemory
      ? "backend"
      : random.weighted<BackendKill>([
          ["wipe", 2],
          ["backend", 1],
          ["with-redis", 1],
          ["redis", 1],
        ]);
  const drawn = random.weighted(choices);
  switch (drawn) {
    case "kill-backend":
      return { action: "kill-backend", targets: [random.pick(healthy)], how: [how()], downMs: [downMs()] };
    case "double-kill": {
      const first = random.pick(healthy);
      const second = random.pick(healthy.filter((i) => i !== first));
      return {
        action: "kill-backend",
        targets: [first, second],
        how: [how(), how()],
        downMs: [downMs(), downMs()],
      };
    }
    case "pause-backend":
      return {
        action: "pause-backend",
        target: random.pick(healthy),
        pauseMs: Math.round(random.between(500, MAX_BACKEND_PAUSE_MS)),
      };
    case "kill-keeper":
      return { action: "kill-keeper", target: random.pick(liveKeepers), downMs: downMs() };
    case "pause-keeper":
      return {
        action: "pause-keeper",
        target: random.pick(liveKeepers),
        pauseMs: Math.round(random.between(500, MAX_KEEPER_PAUSE_MS)),
      };
    case "add-backend":
      return { action: "add-backend" };
    case "remove-backend":
      return { action: "remove-backend", target: random.pick(healthy) };
    default: {
      const plan = network.find(([action]) => action === drawn)![2];
      return plan(random, downMs());
    }
  }
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
