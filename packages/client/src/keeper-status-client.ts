// A keeper's report on the cluster (gRPC Keeper.Status): its shape, read once
// here for every reader (the CLI, chaos runs, tests, benchmarks). The shape
// is also the keeper's HTTP /status JSON, a public contract: field names and
// order are kept, and what the proto leaves empty is null or left out there.
import {
  type BackendState__Output,
  clientSecurity,
  loadProtocol,
  type StatusBackend__Output,
  type StatusRepair__Output,
  type StatusReply__Output,
  type TlsFiles,
  wireToBigint,
} from "@binring/core";
import { repairPace } from "./repair-pace.js";

/** A backend's state as a keeper reports it. */
export type BackendHealth = "unknown" | "ready" | "suspect" | "dead" | "filling";

/** Each state's BackendState on the wire. */
export const HEALTH_TO_WIRE: Readonly<Record<BackendHealth, BackendState__Output>> = {
  unknown: "BACKEND_STATE_UNKNOWN",
  ready: "BACKEND_STATE_READY",
  suspect: "BACKEND_STATE_SUSPECT",
  dead: "BACKEND_STATE_DEAD",
  filling: "BACKEND_STATE_FILLING",
};

const HEALTH_FROM_WIRE = new Map(
  Object.entries(HEALTH_TO_WIRE).map(([health, wire]) => [wire, health as BackendHealth]),
);

export interface KeeperReport {
  address: string;
  /** The keeper answering. */
  self: boolean;
  alive: boolean;
  /** Alive (backends hear it) but the answering keeper cannot reach it. */
  cutOff: boolean;
  /** The backends it owns, sorted. */
  slice: string[];
  /** Backends whose repair or fill it runs or has queued. */
  working: string[];
  /** Taken off the keeper ring, still handing its slice over. */
  leaving: boolean;
}

export interface BackendReport {
  address: string;
  state: BackendHealth;
  /** The keeper that owns it; null when no live keeper does. */
  owner: string | null;
  misses: number;
  /** The last heartbeat answer's counts: null until the backend answered once. */
  clock: string | null;
  keys: number | null;
  lists: number | null;
  bins: number | null;
  lastAnswerMsAgo: number;
  /**
   * The keeper whose claim the backend last reported holding (its owner term):
   * it differs from `owner` while a takeover or hand-back settles. null until
   * it answered, or while no keeper has claimed it since it started.
   */
  claimedBy: string | null;
  /** Its failure domain; "" for none. */
  zone: string;
  /** Being decommissioned: it leaves the ring once its bins are on their new replicas. */
  leaving: boolean;
}

export interface RepairReport {
  /** Its intent in the keeper log; a recovery has none. */
  id?: string;
  /** "repair", "fill" or "recovery". */
  kind: string;
  backend: string;
  /** "running", "queued", "committing" or "reading the keeper log". */
  state: string;
  /** The rest only while running. */
  recovered?: boolean;
  runningMs?: number;
  entriesCopied?: number;
  /** Bytes applied: the entries as encoded on the wire (bins, keys, values, stamps and framing). */
  bytesCopied?: number;
  tasksDone?: number;
  tasksTotal?: number;
  /** The pace so far and the time left at it (repair-pace.ts). */
  bytesPerSecond?: number;
  etaMs?: number;
}

export interface CompletedRepairReport {
  id: string;
  kind: string;
  backend: string;
  entries: number;
  ms: number;
  recovered: boolean;
}

/** What one keeper knows of the whole cluster. */
export interface KeeperStatus {
  /** The answering keeper's name, and its address in the cluster file. */
  keeper: string;
  address: string;
  /** Its view's epoch, in decimal. */
  epoch: string;
  beatsSent: number;
  keepers: KeeperReport[];
  backends: BackendReport[];
  /** The running one first, then queued, committing, and those waiting on the keeper log. */
  repairs: RepairReport[];
  /** The last ten finished, oldest first. */
  completedRepairs: CompletedRepairReport[];
  /** The answering keeper is on no keeper ring (not added yet, or removed): it acts on nothing. */
  offRing: boolean;
}

function backendFromWire(b: StatusBackend__Output): BackendReport {
  const last = b.last;
  return {
    address: b.address,
    state: HEALTH_FROM_WIRE.get(b.state) ?? "unknown",
    owner: b.owner || null,
    misses: b.misses,
    clock: last ? wireToBigint(last.clock).toString() : null,
    keys: last ? Number(last.keys) : null,
    lists: last ? Number(last.lists) : null,
    bins: last ? Number(last.bins) : null,
    lastAnswerMsAgo: Number(b.lastAnswerMsAgo),
    claimedBy: b.claimedBy || null,
    zone: b.zone,
    leaving: b.leaving,
  };
}

function repairFromWire(r: StatusRepair__Output): RepairReport {
  const about = { ...(r.id ? { id: r.id } : {}), kind: r.kind, backend: r.backend, state: r.state };
  const progress = r.progress;
  if (!progress) return about;
  const running = {
    runningMs: Number(progress.runningMs),
    entriesCopied: Number(progress.entriesCopied),
    bytesCopied: Number(progress.bytesCopied),
    tasksDone: progress.tasksDone,
    tasksTotal: progress.tasksTotal,
  };
  return { ...about, recovered: progress.recovered, ...running, ...repairPace(running) };
}

/** The report as the keeper's HTTP /status serves it. */
export function keeperStatusFromWire(reply: StatusReply__Output): KeeperStatus {
  return {
    keeper: reply.keeper,
    address: reply.address,
    epoch: wireToBigint(reply.epoch).toString(),
    beatsSent: Number(reply.beatsSent),
    keepers: reply.keepers.map(({ address, self, alive, cutOff, slice, working, leaving }) => ({
      address,
      self,
      alive,
      cutOff,
      slice,
      working,
      leaving,
    })),
    backends: reply.backends.map(backendFromWire),
    repairs: reply.repairs.map(repairFromWire),
    completedRepairs: reply.completedRepairs.map(({ id, kind, backend, entries, ms, recovered }) => ({
      id,
      kind,
      backend,
      entries: Number(entries),
      ms: Number(ms),
      recovered,
    })),
    offRing: reply.offRing,
  };
}

/** How long one Status call may take before it fails. */
export const KEEPER_STATUS_TIMEOUT_MS = 3000;

/**
 * Asks the keeper at `address` (its gRPC address) for its report. Rejects
 * with the call's grpc-js ServiceError (its `details` say why) when the
 * keeper does not answer within `timeoutMs`.
 */
export function fetchKeeperStatus(
  address: string,
  timeoutMs = KEEPER_STATUS_TIMEOUT_MS,
  tls?: TlsFiles,
): Promise<KeeperStatus> {
  const security = clientSecurity(tls, "keeper");
  const client = new (loadProtocol().Keeper)(address, security.credentials, security.options);
  return new Promise((resolve, reject) => {
    client.Status({}, { deadline: new Date(Date.now() + timeoutMs) }, (error, reply) => {
      client.close();
      if (error || !reply) reject(error ?? new Error(`${address}: empty status reply`));
      else resolve(keeperStatusFromWire(reply));
    });
  });
}
