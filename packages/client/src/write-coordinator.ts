// The coordinator of one replicated write. A client sends the write once, to
// the first of the bin's replicas that serves reads; that backend runs this:
// it stamps the entry with its own clock, applies it to every replica the
// client listed, and answers once all of them have it (docs/ARCHITECTURE.md,
// "Write path"). A set goes to every replica at once, each withholding it
// from its readers until the replicas after it hold it (write-fan-out.ts); a
// list entry goes replica by replica, last backup first and the coordinator
// in its place, since a remove's count and an append it overtook are decided
// along that order (remove-count.ts). It lives beside the client's half of
// the protocol (write-path.ts) because the two are one protocol, tested
// together on fake replicas; the backend wires it to its store and to links
// to the other replicas.
//
// Either way, whatever a reader can see on a replica is already on every
// replica after it in placement order (HAZARDS.md 1), and the stamp is above
// every acknowledged entry of the bin: the coordinator serves reads, so it
// holds them all, and its clock is past their stamps (HAZARDS.md 2).
//
// The coordinator keeps nothing about the write once it answers. When an
// attempt fails part way, its error carries the replica that failed and the
// stamp the write had (WriteProgress): the client, which holds the cluster
// view, decides what that replica's failure means and sends the next attempt
// with that stamp. When an attempt's outcome is unknown to the client (its
// coordinator died, or did not answer), the next coordinator first claims the
// write on every replica (HAZARDS.md 20): it keeps any stamp one of them
// holds, and fences the write so the lost attempt's entries land nowhere.
import {
  compareStamps,
  type Operation,
  type Stamp,
  stampFromWire,
  TimeoutError,
  type WriteReply__Output,
  wireToBigint,
} from "@binring/core";
import type { CoordinatorHost } from "./coordinator-host.js";
import { mustRestamp, reportedReply } from "./remove-count.js";
import {
  applyCatchingUp,
  type Call,
  claimOperation,
  entryOperation,
  failedAt,
  forwardTimeoutMs,
  target,
} from "./replica-apply.js";
import { applyAtOnce } from "./write-fan-out.js";
import { type CoordinatedWrite, checkReplicas } from "./write-request.js";

/** Stamps the write (or keeps its stamp), applies it to every replica listed, and reports as write-path.ts expects. */
export async function coordinateWrite(
  host: CoordinatorHost,
  write: CoordinatedWrite,
): Promise<WriteReply__Output> {
  checkReplicas(write);
  const call = (i: number, operation: Operation) =>
    i === write.coordinator
      ? host.local(operation)
      : host.peers.execute(write.replicas[i]!, operation, forwardTimeoutMs(host.time, write.deadline));
  // Fenced by the caller's view, and refused unless this backend serves reads: it is what the stamp rests on.
  const clock = await clockAtLeast(host, write, write.atLeast, write.requireReady);
  let stamp = write.stamp;
  let claim = write.claim;
  if (write.retry) {
    claim = host.newClaimId();
    stamp = await claimEverywhere(write, call, claim, stamp);
  }
  stamp ??= { clock, writer: write.writer, seq: write.seq };
  if (write.kind === "set") return applyAtOnce(host, write, call, stamp, claim);
  return applyEverywhere(host, write, call, stamp, claim);
}

/** This backend's clock raised to at least `atLeast`: the next stamp it would give. */
async function clockAtLeast(
  host: CoordinatorHost,
  write: CoordinatedWrite,
  atLeast: bigint,
  requireReady: boolean,
): Promise<bigint> {
  const reply = await host.local({
    clock: { target: target(write, requireReady), atLeast: atLeast.toString(), raiseOnly: true },
  });
  return wireToBigint(reply.clock?.clock);
}

/**
 * Claims the write on every replica listed, in parallel: each answers the
 * largest stamp it holds for it and from then on takes its entries only under
 * this claim. Returns the largest of those and `known` (the stamp the caller
 * learned last), or undefined when no replica holds one: the write was
 * applied nowhere, or only where no reader will see it before it is emptied
 * (a replica the caller left out is gone, and comes back through a fill, which
 * empties it first). A replica's failure names that replica, so the caller
 * judges it, not this coordinator, by it (a store that failed a claim on a
 * backup must not make the caller skip a live coordinator).
 */
async function claimEverywhere(
  write: CoordinatedWrite,
  call: Call,
  claim: string,
  known: Stamp | undefined,
): Promise<Stamp | undefined> {
  const operation = claimOperation(write, write.writer, write.seq, claim);
  const held = await Promise.all(
    write.replicas.map((address, i) =>
      call(i, operation).then(
        (reply) => (reply.claim?.stamp ? stampFromWire(reply.claim.stamp) : undefined),
        (error: unknown) => {
          throw failedAt(error, address, undefined, claim, 0);
        },
      ),
    ),
  );
  let largest = known;
  for (const stamp of held) {
    if (stamp && (!largest || compareStamps(stamp, largest) > 0)) largest = stamp;
  }
  return largest;
}

/**
 * Applies a list entry to every replica, last backup first. An append that a
 * remove of its value overtook on a replica before the counting one (the
 * first ready one in placement order) would never show: it is stamped again
 * above the remove and applied anew everywhere (remove-count.ts).
 */
async function applyEverywhere(
  host: CoordinatorHost,
  write: CoordinatedWrite,
  call: Call,
  first: Stamp,
  claim: string | undefined,
): Promise<WriteReply__Output> {
  let stamp = first;
  const applied = new Map<string, WriteReply__Output>();
  let restamps = 0;
  const order = write.replicas.map((_, i) => i).reverse();
  for (;;) {
    let superseded = false;
    for (const i of order) {
      const address = write.replicas[i]!;
      if (applied.has(address)) continue;
      let reply: WriteReply__Output;
      try {
        const operation = entryOperation(write, stamp, claim);
        reply = (await applyCatchingUp(host.time, write, call, i, operation, stamp)).write!;
      } catch (error) {
        throw failedAt(error, address, stamp, claim, applied.size);
      }
      applied.set(address, reply);
      if (!reply.superseded) continue;
      const self = write.replicas[write.coordinator]!;
      let again: boolean;
      try {
        again = await mustStampAgain(host, write, applied, stamp);
      } catch (error) {
        throw failedAt(error, self, stamp, claim, applied.size);
      }
      if (again) {
        superseded = true;
        const above = wireToBigint(reply.clock);
        try {
          if (host.time.now() >= write.deadline)
            throw new TimeoutError(`a remove kept overtaking the append for ${restamps} restamps`);
          stamp = {
            clock: await clockAtLeast(host, write, above, false),
            writer: write.writer,
            seq: write.seq,
          };
        } catch (error) {
          throw failedAt(error, self, stamp, claim, applied.size);
        }
        restamps++;
        applied.clear();
        break;
      }
    }
    if (!superseded) return { ...reportedReply(write.replicas, applied)!, restamps };
  }
}

/**
 * An append a replica answered `superseded`: stamp it again unless the
 * counting replica (remove-count.ts) already took it under this stamp. This
 * attempt may not have reached it yet (it is this coordinator, which applies
 * after the backups) while an earlier attempt did — under another
 * coordinator, before a death changed placement — and a remove then counted
 * it there: restamping would make an append show that a remove reported
 * removed (a soak saw it). So this coordinator, the counting replica, looks in
 * its own store.
 */
async function mustStampAgain(
  host: CoordinatorHost,
  write: CoordinatedWrite,
  applied: ReadonlyMap<string, WriteReply__Output>,
  stamp: Stamp,
): Promise<boolean> {
  if (!mustRestamp(write.replicas, applied)) return false;
  return !(await host.holdsAppend(write.bin, write.key, write.value, stamp));
}
