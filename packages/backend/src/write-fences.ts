// Fences of claimed writes (storage.proto ClaimRequest, HAZARDS.md 20). When a
// client retries a write whose earlier attempt it lost track of, the new
// coordinator claims the write on every replica before it picks the stamp. From
// the claim on, this backend takes the write's entries only under that claim,
// or with the stamp the claim settled on, so an entry of the lost attempt still
// in flight (a coordinator that was given up on, a forward queued on a socket)
// cannot land a second stamp for one write here after the claim looked.
//
// A write is named by its stamp's writer and seq, which stay the same across
// its attempts and restamps. Fences live in memory: a restart ends every
// connection that could still deliver a lost attempt's entries.
import { randomBytes } from "node:crypto";
import { type Entry, encodeStamp, type Stamp } from "@binring/core";
import type { Logger } from "pino";

/** A claim's id, as a coordinator or a backend claiming a write afresh makes one: 8 random bytes in hex. */
export function newClaimId(): string {
  return randomBytes(8).toString("hex");
}

/** How long a fence holds: past any write's deadline (at most 60 s), with room for entries queued on sockets. */
export const FENCE_TTL_MS = 120_000;

interface Fence {
  claim: string;
  /** The largest stamp an entry under the claim brought (encoded): copies of it may land too. */
  settled: string | undefined;
  /** ms (the node's clock) */
  expiresAt: number;
}

export class WriteFences {
  /** By writer and seq, in the order they were made (so expired ones are at the front). */
  readonly #fences = new Map<string, Fence>();

  constructor(
    private readonly now: () => number,
    /** Refused copies are reported here. */
    private readonly logger?: Logger,
  ) {}

  /** Fences the write (writer, seq) for `claim`, replacing an older claim's fence. */
  claim(writer: string, seq: number, claim: string): void {
    this.#forgetExpired();
    const key = fenceKey(writer, seq);
    this.#fences.delete(key);
    this.#fences.set(key, { claim, settled: undefined, expiresAt: this.now() + FENCE_TTL_MS });
  }

  /**
   * Whether an entry a coordinator sends may be applied: no fence holds its
   * write, or it comes under the fence's claim (then its stamp is the one the
   * claim settled on), or it has that settled stamp.
   */
  admits(stamp: Stamp, claim: string | undefined): boolean {
    const fence = this.#live(stamp);
    if (!fence) return true;
    const encoded = encodeStamp(stamp);
    if (claim === fence.claim) {
      if (fence.settled === undefined || encoded > fence.settled) fence.settled = encoded;
      return true;
    }
    return encoded === fence.settled;
  }

  /**
   * The copies (repair, fill) that may land: no fence holds their write, or
   * they have its settled stamp. The others are refused (and logged): a copy
   * of a claimed write's other stamp would be a second entry for one write.
   */
  admitCopies(entries: readonly Entry[]): readonly Entry[] {
    if (this.#fences.size === 0) return entries;
    const admitted: Entry[] = [];
    const refused: Entry[] = [];
    for (const entry of entries) {
      const fence = this.#live(entry.stamp);
      (!fence || encodeStamp(entry.stamp) === fence.settled ? admitted : refused).push(entry);
    }
    if (refused.length > 0) {
      const first = refused
        .slice(0, 5)
        .map(({ bin, key, stamp }) => ({ bin, key, stamp: encodeStamp(stamp) }));
      this.logger?.warn(
        { refused: refused.length, first },
        "copies refused by write fences (a claimed write's other stamp)",
      );
    }
    return admitted;
  }

  /**
   * Forgets every fence: the store was emptied. Whatever it held of a fenced
   * write is gone, and a fill brings back the stamp the write was acknowledged
   * with — a fence whose claim never settled here (its attempt went on without
   * this backend) would refuse that very copy. Entries of attempts from before
   * the empty still in flight carry an older epoch than the one the keeper
   * pushed here before emptying, and are refused for it.
   */
  clear(): void {
    this.#fences.clear();
  }

  get size(): number {
    return this.#fences.size;
  }

  #live(stamp: Stamp): Fence | undefined {
    if (this.#fences.size === 0) return undefined;
    const fence = this.#fences.get(fenceKey(stamp.writer, stamp.seq));
    return fence && fence.expiresAt > this.now() ? fence : undefined;
  }

  #forgetExpired(): void {
    const now = this.now();
    for (const [key, fence] of this.#fences) {
      if (fence.expiresAt > now) break;
      this.#fences.delete(key);
    }
  }
}

function fenceKey(writer: string, seq: number): string {
  return `${writer}:${seq}`;
}
