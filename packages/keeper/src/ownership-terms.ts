// This keeper's claims on the backends it owns: the fencing token the backend
// checks on every owner-only call (backend/src/ownership.ts, HAZARDS.md 23).
// A term is minted like an epoch (counter, this process's nonce and index), so
// it names this keeper's process and is never minted twice. The keeper claims
// above the largest term a backend reported, holds its term while it owns the
// backend, and forgets it when the backend leaves its slice: if the backend
// comes back it claims anew, above whoever held it meanwhile.
import { epochCounter, isValidEpoch, mintedAt } from "./shared-view.js";

export class OwnershipTerms {
  /** The term this keeper claims each backend of its slice under. */
  readonly #mine = new Map<string, bigint>();
  /** The term each backend last reported holding. */
  readonly #reported = new Map<string, bigint>();

  /** @param stamp this keeper's low bits now (they change when it is given a slot) */
  constructor(private readonly stamp: () => bigint) {}

  /**
   * The term to send `address` under: this keeper's claim if it owns the
   * backend (minted anew when the backend reports a larger term: another
   * keeper claimed it since), 0 otherwise.
   */
  termFor(address: string, owned: boolean): bigint {
    if (!owned) {
      this.#mine.delete(address);
      return 0n;
    }
    const mine = this.#mine.get(address);
    const reported = this.#reported.get(address) ?? 0n;
    if (mine !== undefined && mine >= reported) return mine;
    const term = mintedAt(epochCounter(reported) + 1n, this.stamp());
    this.#mine.set(address, term);
    return term;
  }

  /** A backend's report of the term whose claim holds there. One past the ceiling is no keeper's: ignored. */
  reported(address: string, term: bigint): void {
    if (isValidEpoch(term)) this.#reported.set(address, term);
  }
}
