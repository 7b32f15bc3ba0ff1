// A WriteRequest (storage.proto) as a write's coordinator takes it
// (write-coordinator.ts): every field checked, with an error naming the bad
// one, since any caller can send one.
import {
  checkStamp,
  checkWriterId,
  InvalidArgumentError,
  type Stamp,
  stampFromWire,
  type WriteRequest__Output,
  wireToBigint,
} from "@binring/core";

export type WriteKind = "set" | "listAppend" | "listRemove";

/** Most replicas one write may list: three copies, and room for a bin that moves (a ring that changes). */
export const MAX_WRITE_REPLICAS = 8;

/** One write as the coordinator takes it (storage.proto WriteRequest, checked). */
export interface CoordinatedWrite {
  kind: WriteKind;
  bin: string;
  key: string;
  value: string;
  /** The caller's view epoch: every replica fences the write by it. */
  epoch: bigint;
  /** The coordinator must be ready (false only for a cluster without keepers, read-path.ts). */
  requireReady: boolean;
  writer: string;
  seq: number;
  /** The stamp's clock is at least this (the largest clock the writer has seen). */
  atLeast: bigint;
  /** The bin's replicas as the caller sees them, primary first, and this backend's place among them. */
  replicas: readonly string[];
  coordinator: number;
  /** From an earlier attempt: keep this stamp (and the claim it was settled under). */
  stamp?: Stamp;
  claim?: string;
  /** An earlier attempt's outcome is unknown to the caller: claim the write everywhere first. */
  retry: boolean;
  /** When (host.time) the coordinator must give up and answer. */
  deadline: number;
}

const KINDS: Readonly<Record<string, WriteKind>> = {
  ENTRY_KIND_SET: "set",
  ENTRY_KIND_APPEND: "listAppend",
  ENTRY_KIND_REMOVE: "listRemove",
};

/** The coordinator's time to answer when the client names none, and the most it may name. */
export const DEFAULT_WRITE_TIMEOUT_MS = 2000;
export const MAX_WRITE_TIMEOUT_MS = 60_000;

/** A WriteRequest as the coordinator takes it, its deadline counted from `now`; throws InvalidArgumentError naming the bad field. */
export function parseWriteRequest(request: WriteRequest__Output, now: number): CoordinatedWrite {
  const kind = KINDS[request.kind];
  if (!kind)
    throw new InvalidArgumentError(
      `write.kind must be ENTRY_KIND_SET, ENTRY_KIND_APPEND or ENTRY_KIND_REMOVE, got ${request.kind}`,
    );
  const entry = request.entry;
  if (!entry) throw new InvalidArgumentError("write.entry is missing: it carries the bin, key and value");
  const writer = checkWriterId("write.entry.writer", entry.writer);
  const stamp = entry.stamp ? checkStamp("write.entry.stamp", stampFromWire(entry.stamp)) : undefined;
  if (stamp && (stamp.writer !== writer || stamp.seq !== entry.seq))
    throw new InvalidArgumentError(
      `write.entry.stamp names write ${stamp.writer}:${stamp.seq}, not this one (${writer}:${entry.seq})`,
    );
  if (entry.claim.length > 64)
    throw new InvalidArgumentError(
      `write.entry.claim must be at most 64 characters, got ${entry.claim.length}`,
    );
  if (request.timeoutMs > MAX_WRITE_TIMEOUT_MS)
    throw new InvalidArgumentError(
      `write.timeout_ms must be at most ${MAX_WRITE_TIMEOUT_MS}, got ${request.timeoutMs}`,
    );
  return {
    kind,
    bin: entry.target?.bin ?? "",
    key: entry.key,
    value: entry.value,
    epoch: wireToBigint(entry.target?.epoch),
    requireReady: entry.target?.requireReady ?? false,
    writer,
    seq: entry.seq,
    atLeast: wireToBigint(entry.atLeast),
    replicas: request.replicas,
    coordinator: request.coordinator,
    stamp,
    claim: entry.claim || undefined,
    retry: request.retry,
    deadline: now + (request.timeoutMs || DEFAULT_WRITE_TIMEOUT_MS),
  };
}

/** The replica list and the coordinator's place in it: each a host:port, none twice, at most MAX_WRITE_REPLICAS. */
export function checkReplicas(write: CoordinatedWrite): void {
  const { replicas, coordinator } = write;
  if (replicas.length === 0 || replicas.length > MAX_WRITE_REPLICAS)
    throw new InvalidArgumentError(
      `write.replicas must list 1 to ${MAX_WRITE_REPLICAS} backends, got ${replicas.length}`,
    );
  if (new Set(replicas).size !== replicas.length)
    throw new InvalidArgumentError(`write.replicas lists a backend twice: ${JSON.stringify(replicas)}`);
  for (const address of replicas) {
    if (!/^[^\s/]+:\d{1,5}$/.test(address))
      throw new InvalidArgumentError(`write.replicas holds ${JSON.stringify(address)}, not host:port`);
  }
  if (coordinator >= replicas.length)
    throw new InvalidArgumentError(
      `write.coordinator is ${coordinator}, but write.replicas lists ${replicas.length} backends`,
    );
}
