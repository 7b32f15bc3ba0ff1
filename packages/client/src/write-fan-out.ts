// A set's half of the coordinator: the stamped entry goes to every replica the
// write lists at once, the coordinator itself included, each told the
// replicas after it in the list. Each takes the entry at once and withholds it
// from its readers until those hold it too (backend withheld-entries.ts); once
// every replica took it, the coordinator releases it on itself and tells the
// others, with the next message that goes to each. So a set costs one round
// to the replicas instead of one per replica, and still whatever a reader can
// see on a replica is on every replica after it (HAZARDS.md 1): the last one
// withholds nothing, and every earlier one shows the entry only once the
// replicas after it hold it.
//
// A replica that withholds an entry nobody releases — its coordinator died,
// or the attempt failed and its writer gave up — forwards it to the replicas
// after it itself (`forwardWithheld`, run by the backend's withheld-release.ts)
// and releases it once they hold it or are gone. Sets only: a remove's count
// and an append it overtook are decided along the replicas' order
// (remove-count.ts), so list entries keep going replica by replica.
import {
  ConnectionRefusedError,
  compareStamps,
  type Operation,
  type OperationResult__Output,
  type Stamp,
  StoreUnavailableError,
  SupersededAttemptError,
  stampFromWire,
  stampToWire,
  type WriteReply__Output,
} from "@binring/core";
import type { CoordinatorHost } from "./coordinator-host.js";
import { reportedReply } from "./remove-count.js";
import {
  applyCatchingUp,
  type Call,
  claimOperation,
  entryOperation,
  failedAt,
  target,
} from "./replica-apply.js";
import type { ReplicaTransport } from "./replica-transport.js";
import type { WallTime } from "./wall-time.js";
import type { CoordinatedWrite } from "./write-request.js";

/**
 * Applies the set on every listed replica at once and answers once all took
 * it. A failure is reported once every replica answered, naming the last
 * failed one in placement order, as a list entry's would: the entry stays
 * withheld wherever it landed, and the writer's next attempt, with the same
 * stamp, completes and releases it.
 */
export async function applyAtOnce(
  host: CoordinatorHost,
  write: CoordinatedWrite,
  call: Call,
  stamp: Stamp,
  claim: string | undefined,
): Promise<WriteReply__Output> {
  const { replicas } = write;
  const outcomes = await applyToEach(host.time, write, call, replicas, stamp, claim);
  const applied = new Map<string, WriteReply__Output>();
  outcomes.forEach((outcome, i) => {
    if (outcome.status === "fulfilled") applied.set(replicas[i]!, outcome.value.write!);
  });
  for (let i = replicas.length - 1; i >= 0; i--) {
    const outcome = outcomes[i]!;
    if (outcome.status === "rejected")
      throw failedAt(outcome.reason, replicas[i]!, stamp, claim, applied.size);
  }
  const release = releaseOperation(write, stamp);
  await host.local(release);
  releaseWithheld(host, replicas, release, (i) => i !== write.coordinator);
  return { ...reportedReply(replicas, applied)!, restamps: 0 };
}

/** The set on every one of `replicas` at once, each told the replicas after it; every outcome, in their order. */
function applyToEach(
  time: WallTime,
  write: Pick<CoordinatedWrite, "kind" | "bin" | "epoch" | "key" | "value" | "deadline">,
  call: Call,
  replicas: readonly string[],
  stamp: Stamp,
  claim: string | undefined,
): Promise<PromiseSettledResult<OperationResult__Output>[]> {
  return Promise.allSettled(
    replicas.map((_, i) =>
      applyCatchingUp(
        time,
        write,
        call,
        i,
        entryOperation(write, stamp, claim, replicas.slice(i + 1)),
        stamp,
      ),
    ),
  );
}

/** Tells each of `replicas` that `tell` names the set is released; the last withholds nothing, so it is never told. */
function releaseWithheld(
  host: Pick<CoordinatorHost, "notify">,
  replicas: readonly string[],
  release: Operation,
  tell: (i: number) => boolean,
): void {
  for (const [i, address] of replicas.entries()) {
    if (i < replicas.length - 1 && tell(i)) host.notify(address, release);
  }
}

function releaseOperation(entry: Pick<CoordinatedWrite, "bin" | "epoch" | "key">, stamp: Stamp): Operation {
  return { release: { target: target(entry, false), key: entry.key, stamp: stampToWire(stamp) } };
}

/** A set a backend withholds, as it forwards it itself. */
export interface WithheldSet {
  bin: string;
  key: string;
  value: string;
  stamp: Stamp;
  claim: string | undefined;
  /** The backend's view epoch now (at least the one the set came with). */
  epoch: bigint;
}

export interface WithheldForwarder {
  peers: ReplicaTransport;
  time: WallTime;
  notify(address: string, operation: Operation): void;
}

/** How a forward of a withheld set ended (`forwardWithheld`). */
export interface WithheldForward {
  /** Replicas that may still lack the set: none means it may be shown. */
  lacking: string[];
  /** Replicas found gone, which need not hold it. */
  gone: string[];
  /** A replica refused it as an attempt a newer attempt of its write claimed (HAZARDS.md 20). */
  superseded: boolean;
}

/**
 * Forwards a withheld set to the replicas after this one (`later`), as its
 * coordinator did: to all at once, each told the replicas after it. Resolves
 * with the ones that may still lack it — none means the set may be shown here
 * — and the ones found gone: nothing listens on the port (confirmed afresh)
 * or the store failed. A gone replica serves no reads until it is emptied and
 * refilled, so it need not hold the set, as a client's write skips it (client
 * session `noteFailure`). Once none lacks it, the replicas that took it and
 * withhold it for others are released.
 */
export async function forwardWithheld(
  host: WithheldForwarder,
  set: WithheldSet,
  later: readonly string[],
  timeoutMs: number,
): Promise<WithheldForward> {
  const write = { ...set, kind: "set" as const, deadline: host.time.now() + timeoutMs };
  const call: Call = (i, operation) => host.peers.execute(later[i]!, operation, timeoutMs);
  const outcomes = await applyToEach(host.time, write, call, later, set.stamp, set.claim);
  const lacking: string[] = [];
  const gone: string[] = [];
  let superseded = false;
  await Promise.all(
    outcomes.map(async (outcome, i) => {
      if (outcome.status === "fulfilled") return;
      const address = later[i]!;
      superseded ||= outcome.reason instanceof SupersededAttemptError;
      (isGone(outcome.reason) && (await confirmed(host.peers, address, outcome.reason))
        ? gone
        : lacking
      ).push(address);
    }),
  );
  if (lacking.length === 0)
    releaseWithheld(host, later, releaseOperation(write, set.stamp), (i) => !gone.includes(later[i]!));
  return { lacking, gone, superseded };
}

/**
 * Claims the write of a withheld set afresh on the replicas after this one,
 * as the coordinator of a retry does (HAZARDS.md 20): each fences the write
 * under `claim` and answers the largest stamp it holds of it. For a set those
 * replicas refused as an attempt a newer attempt claimed, when no stamp of the
 * newer attempt came here: that attempt may have claimed and gone no further
 * (its writer gave up), and its fence would refuse the set for good. Resolves
 * true when none holds a larger stamp of the write, so the set may be sent
 * under `claim`, as that retry would have sent it; false when one does, which
 * the attempt that applied it brings here or outranks.
 */
export async function claimWithheld(
  host: WithheldForwarder,
  set: WithheldSet,
  later: readonly string[],
  claim: string,
  timeoutMs: number,
): Promise<boolean> {
  const operation = claimOperation(set, set.stamp.writer, set.stamp.seq, claim);
  const held = await Promise.all(later.map((address) => host.peers.execute(address, operation, timeoutMs)));
  return held.every(
    (reply) => !reply.claim?.stamp || compareStamps(stampFromWire(reply.claim.stamp), set.stamp) <= 0,
  );
}

function isGone(error: unknown): boolean {
  return error instanceof StoreUnavailableError || error instanceof ConnectionRefusedError;
}

/** A refused connection counts only when a fresh connection is refused too (connection-probe.ts). */
async function confirmed(peers: ReplicaTransport, address: string, error: unknown): Promise<boolean> {
  return !(error instanceof ConnectionRefusedError) || (await peers.refusesConnections(address));
}
