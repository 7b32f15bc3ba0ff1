// The keepers' cluster view as the paths see it, published on virtual time:
// a refresh adopts the newest view published so far.
import type { ViewSource } from "../../src/client-session.js";
import type { VirtualTime } from "./virtual-time.js";

interface Publication {
  at: number;
  epoch: bigint;
  dead: readonly string[];
  repairing: readonly string[];
}

export class FakeView implements ViewSource {
  epoch = 0n;
  hasKeepers = true;
  /** Set false to start as a client whose keepers have not answered yet; a refresh that finds a view sets it. */
  hasView = true;
  #dead = new Set<string>();
  #repairing = new Set<string>();
  /** How many times a path asked for a newer view. */
  refreshes = 0;
  /** The epochs past this view's that backends reported, as the refreshes were told them. */
  readonly reportedEpochs: bigint[] = [];
  readonly #publications: Publication[] = [];

  constructor(private readonly time: VirtualTime) {}

  /** From virtual time `at` on, a refresh finds this view. `repairing` are dead too. */
  publish(view: { epoch: bigint; dead?: readonly string[]; repairing?: readonly string[] }, at = 0): void {
    const repairing = view.repairing ?? [];
    this.#publications.push({ at, epoch: view.epoch, dead: [...(view.dead ?? []), ...repairing], repairing });
  }

  isDead(address: string): boolean {
    return this.#dead.has(address);
  }

  isRepairing(address: string): boolean {
    return this.#repairing.has(address);
  }

  async refresh(behind = 0n): Promise<void> {
    this.refreshes++;
    if (behind > 0n) this.reportedEpochs.push(behind);
    const newest = this.#publications.filter((p) => p.at <= this.time.now()).at(-1);
    if (!newest || newest.epoch < this.epoch) return;
    this.hasView = true;
    this.epoch = newest.epoch;
    this.#dead = new Set(newest.dead);
    this.#repairing = new Set(newest.repairing);
  }
}
