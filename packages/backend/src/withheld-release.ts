// This backend's own release of the sets it withholds (withheld-entries.ts)
// when no coordinator releases them: the coordinator died after forwarding,
// or its attempt failed and the writer gave up, or the release was lost with
// a link. Such a set is forwarded (client write-fan-out.ts `forwardWithheld`)
// to the bin's replicas after this one under the keepers' view at this
// backend's epoch — to all of them when this backend no longer is one — and
// shown once each holds it or is gone; sooner when a read or a scan waits for
// it. The view, not the write's own list: after a view change the replicas
// that list named may refuse its old epoch, and one that no longer holds the
// bin must not take a copy it would keep past its drop (HAZARDS.md 3). A
// replica that is merely slow or cut off keeps the set withheld: it may serve
// reads, so it must hold what readers here see.
import { claimWithheld, forwardWithheld, type WithheldForwarder, type WithheldSet } from "@binring/client";
import { compareStamps, type Stamp } from "@binring/core";
import type { Logger } from "pino";
import type { BackendNode } from "./backend-node.js";
import type { BinPlacement } from "./backend-placement.js";
import { FORWARD_WINDOW_MS, type WithheldEntry } from "./withheld-entries.js";
import { newClaimId } from "./write-fences.js";

/** How often the withheld sets are looked through. */
export const RELEASE_SWEEP_MS = 250;
/** How long one forward of a withheld set waits for each replica. */
export const RELEASE_FORWARD_TIMEOUT_MS = 2000;
/** After a forward that left a replica lacking the set (or found no view to place it by), the next waits this long. */
export const RELEASE_RETRY_MS = 1000;

/** Where the bin of a withheld set is placed now (backend-placement.ts). */
export type PlacementSource = (bin: string) => Promise<BinPlacement>;

/**
 * How one of this backend's own forwards of a withheld set ended: shown once
 * its replicas held it, or once a later stamp of its write outranked it here;
 * still withheld (a replica lacked it, or a newer attempt's fence refused it);
 * given up past the forward window; or failed before it was sent (no view).
 */
export const FORWARD_OUTCOMES = [
  "released",
  "outranked",
  "lacking",
  "superseded",
  "gave_up",
  "failed",
] as const;
export type ForwardOutcome = (typeof FORWARD_OUTCOMES)[number];

/** The largest stamp this backend applied for the write (writer, seq) lately (store-engine.ts `claim`), or null. */
export type AppliedStamp = (writer: string, seq: number) => Promise<Stamp | null>;

export interface WithheldReleaseOptions {
  node: BackendNode;
  placement: PlacementSource;
  appliedStamp: AppliedStamp;
  forwarder: WithheldForwarder;
  logger: Logger;
  /** Milliseconds since an arbitrary origin; monotonic. Injected by tests. @default performance.now */
  now?: () => number;
  /** Told how each forward ended (metrics). */
  ended?: (outcome: ForwardOutcome) => void;
  /** A new claim id for a write this backend claims afresh. Injected by tests. @default write-fences.ts `newClaimId` */
  newClaimId?: () => string;
}

export class WithheldRelease {
  #timer: NodeJS.Timeout | undefined;
  readonly #node: BackendNode;
  readonly #placement: PlacementSource;
  readonly #appliedStamp: AppliedStamp;
  readonly #forwarder: WithheldForwarder;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #ended: (outcome: ForwardOutcome) => void;
  readonly #newClaimId: () => string;

  constructor(options: WithheldReleaseOptions) {
    this.#node = options.node;
    this.#placement = options.placement;
    this.#appliedStamp = options.appliedStamp;
    this.#forwarder = options.forwarder;
    this.#logger = options.logger;
    this.#now = options.now ?? (() => performance.now());
    this.#ended = options.ended ?? (() => undefined);
    this.#newClaimId = options.newClaimId ?? newClaimId;
  }

  start(): void {
    this.#timer ??= setInterval(() => void this.sweep(), RELEASE_SWEEP_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Forwards every withheld set that is due (withheld-entries.ts `due`); resolves once each forward ended. */
  sweep(): Promise<void> {
    return Promise.all(this.#node.withheld.due().map((entry) => this.#forward(entry))).then(() => undefined);
  }

  async #forward(entry: WithheldEntry): Promise<void> {
    entry.forwarding = true;
    let outcome: ForwardOutcome;
    try {
      outcome = await this.#forwardOnce(entry);
    } catch (error) {
      // The view, this backend's member address or its store could not be read: try again later.
      entry.retryAt = this.#now() + RELEASE_RETRY_MS;
      this.#logger.debug({ bin: entry.bin, key: entry.key, err: error }, "a withheld set's forward failed");
      outcome = "failed";
    } finally {
      entry.forwarding = false;
    }
    entry.lastForward = outcome;
    this.#ended(outcome);
  }

  async #forwardOnce(entry: WithheldEntry): Promise<ForwardOutcome> {
    const { bin, key, value, stamp, claim } = entry;
    if (this.#now() - entry.since >= FORWARD_WINDOW_MS) {
      this.#node.withheld.giveUp(entry);
      this.#logger.warn(
        { bin, key, lastForward: entry.lastForward },
        "a set stayed withheld past its forward window: not ready until refilled",
      );
      return "gave_up";
    }
    const route = await this.#route(entry);
    if (!route) {
      entry.retryAt = this.#now() + RELEASE_RETRY_MS;
      return "failed";
    }
    const set = { bin, key, value, stamp, claim, epoch: route.epoch };
    let forward = await forwardWithheld(this.#forwarder, set, route.to, RELEASE_FORWARD_TIMEOUT_MS);
    if (forward.superseded && (await this.#outstamped(entry))) {
      this.#node.withheld.release(bin, key, stamp);
      this.#logger.info({ bin, key }, "released a withheld set a later stamp of its write outranks here");
      return "outranked";
    }
    if (forward.superseded) {
      const reached = route.to.filter((address) => !forward.gone.includes(address));
      const fresh = await this.#claimAfresh(entry, set, reached);
      if (fresh) forward = await forwardWithheld(this.#forwarder, fresh, reached, RELEASE_FORWARD_TIMEOUT_MS);
    }
    if (forward.lacking.length === 0 && !forward.superseded) {
      this.#node.withheld.release(bin, key, stamp);
      this.#logger.info(
        { bin, key, to: route.to, gone: forward.gone },
        "released a withheld set its replicas now hold",
      );
      return "released";
    }
    if (route.keeperless) entry.later = entry.later.filter((address) => !forward.gone.includes(address));
    entry.retryAt = this.#now() + RELEASE_RETRY_MS;
    this.#logger.debug(
      { bin, key, ...forward },
      "a withheld set stays withheld: a replica lacks it, or took another attempt",
    );
    return forward.superseded ? "superseded" : "lacking";
  }

  /**
   * A replica refused the set as an attempt a newer attempt of its write
   * claimed (write-fences.ts). That attempt is still settling, or settled on
   * the stamp this backend holds (then its release comes, or a later forward
   * is taken), or on a larger one: once that one is here, it outranks this
   * set's entry of the same write on its key, which can then never show.
   */
  async #outstamped(entry: WithheldEntry): Promise<boolean> {
    const applied = await this.#appliedStamp(entry.stamp.writer, entry.stamp.seq);
    return applied !== null && compareStamps(applied, entry.stamp) > 0;
  }

  /**
   * A newer attempt's fence refused the set and no stamp of that attempt
   * outranks it here: the attempt may have claimed and gone no further. The
   * write is claimed afresh on the replicas after this one (write-fan-out.ts
   * `claimWithheld`); unless one of them holds a larger stamp of the write,
   * the set under that claim is returned, to be sent at once: the sooner it
   * lands, the sooner their fences settle on its stamp, which they then take
   * under any claim — so two replicas that both withhold it and claim in turn
   * cannot keep fencing each other's forwards out. Should the writer still be
   * retrying, its next claim fences this one in turn, and finds this stamp.
   */
  async #claimAfresh(
    entry: WithheldEntry,
    set: WithheldSet,
    later: readonly string[],
  ): Promise<WithheldSet | undefined> {
    const claim = this.#newClaimId();
    try {
      if (!(await claimWithheld(this.#forwarder, set, later, claim, RELEASE_FORWARD_TIMEOUT_MS)))
        return undefined;
    } catch (error) {
      // A replica did not take the claim: the next forward is refused again, and claims again.
      this.#logger.debug(
        { bin: set.bin, key: set.key, err: error },
        "a withheld set's write could not be claimed",
      );
      return undefined;
    }
    entry.claim = claim;
    return { ...set, claim };
  }

  /**
   * The replicas the set must be on before it shows here, and the epoch to
   * send it under: those after this backend in the bin's placement now (all
   * of them when it is not one), or, in a cluster without keepers, those after
   * it in the write's own list. Undefined while no view at this backend's
   * epoch is at hand.
   */
  async #route(
    entry: WithheldEntry,
  ): Promise<{ to: readonly string[]; epoch: bigint; keeperless: boolean } | undefined> {
    const placed = await this.#placement(entry.bin);
    if (placed === "no keepers") return { to: entry.later, epoch: entry.epoch, keeperless: true };
    if (!placed) return undefined;
    const at = placed.replicas.indexOf(placed.self);
    return {
      to: at < 0 ? placed.replicas : placed.replicas.slice(at + 1),
      epoch: placed.epoch,
      keeperless: false,
    };
  }
}
