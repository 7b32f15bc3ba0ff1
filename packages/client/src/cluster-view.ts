// The cluster view as the keepers publish it: which backends are on the ring
// (the membership: backends join and leave while the cluster runs), which are
// dead (and which of those are still being repaired), and the epoch of that
// view. Refreshed from any reachable keeper every few seconds and at once
// (rate-limited) when a call fails: the cluster file's keepers, and those the
// views list (keepers join and leave too), or, when none serves a view, those
// an off-ring keeper's status lists. Without keepers it stays empty and
// the client works from its cluster file's backends and its own reachability
// table.
import {
  type ClusterView__Output,
  clientSecurity,
  isBackendAddress,
  type KeeperClient,
  loadProtocol,
  type TlsFiles,
  wireToBigint,
} from "@binring/core";
import type { Logger } from "pino";
import { keepersKeptByBackends } from "./kept-keepers.js";

/** A backend on the ring, as the keepers list it. */
export interface RingMemberView {
  address: string;
  /** "" for none. */
  zone: string;
}

export interface ClusterViewOptions {
  keepers: string[];
  /** @default plaintext */
  tls?: TlsFiles;
  /** Called with the backends a newer view shows alive. */
  onNewerView(alive: string[]): void;
  /** Called when a view lists other members than the last one (or than the cluster file, first). */
  onMembers(members: RingMemberView[]): void;
  /** The backends this client places bins on: asked for the keepers they keep when no keeper answers. */
  backends(): readonly string[];
  /** @default 2000 */
  refreshIntervalMs: number;
  /** On-demand refreshes are at least this far apart. @default 100 */
  minRefreshGapMs: number;
  logger: Logger;
}

const KEEPER_CALL_TIMEOUT_MS = 1000;

/** A view lists at most this many keepers (the keeper ring's size); more is not a keeper's view. */
const MAX_FOLLOWED_KEEPERS = 16;

/** While no keeper answers, backends are asked again at most this often. */
const BACKENDS_ASKED_EVERY_MS = 10_000;

export class ClusterView {
  /** Epoch of the newest view received; 0n until one arrived (no fencing). */
  epoch = 0n;
  /** A keeper answered at least once: until then this client knows neither the membership nor what is dead. */
  hasView = false;
  #membersKey = "";
  #dead = new Set<string>();
  #repairing = new Set<string>();
  /** Keepers asked for views: the cluster file's, then those the views list (keepers added at runtime). */
  readonly #keepers = new Map<string, KeeperClient>();
  #next = 0;
  #refreshing: Promise<void> | undefined;
  #catchingUp: Promise<void> | undefined;
  #lastRefreshAt = Number.NEGATIVE_INFINITY;
  #backendsAskedAt = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  /** After close, answers still in flight are dropped: they would open connections nobody closes. */
  #closed = false;

  constructor(private readonly options: ClusterViewOptions) {
    for (const address of options.keepers) this.#follow(address);
    if (this.#keepers.size > 0) {
      this.#timer = setInterval(() => void this.refresh(), options.refreshIntervalMs);
      this.#timer.unref();
      void this.refresh();
    }
  }

  get hasKeepers(): boolean {
    return this.#keepers.size > 0;
  }

  /** The keepers this client asks for views, in the order it asks them. */
  get keepers(): string[] {
    return [...this.#keepers.keys()];
  }

  isDead(address: string): boolean {
    return this.#dead.has(address);
  }

  isRepairing(address: string): boolean {
    return this.#repairing.has(address);
  }

  /**
   * Fetches the view from the first keeper that answers; a no-op without
   * keepers, or when one just ran, unless a backend reported an epoch
   * (`behind`) past this view's: every call on this view is refused until the
   * newer one is fetched, so waiting out the gap would stall them all; then
   * every keeper is asked.
   */
  refresh(behind = 0n): Promise<void> {
    if (this.#keepers.size === 0 || this.#closed) return Promise.resolve();
    if (behind > this.epoch) return this.#catchUp(behind);
    // A call retrying after a refused epoch waits for the catch-up, not for one keeper that may be slow.
    if (this.#catchingUp) return this.#catchingUp;
    if (this.#refreshing) return this.#refreshing;
    const recent = performance.now() - this.#lastRefreshAt < this.options.minRefreshGapMs;
    if (recent && behind <= this.epoch) return Promise.resolve();
    this.#refreshing = this.#fetch().finally(() => {
      this.#refreshing = undefined;
      this.#lastRefreshAt = performance.now();
    });
    return this.#refreshing;
  }

  /**
   * A backend named an epoch past this view's. Keepers spread epochs among
   * themselves (a keeper mints one when its view's content changes), so the
   * keeper asked last may not have that one yet, or may be busy copying: every
   * keeper is asked at once, and the refresh ends as soon as a view reaches the
   * epoch (or every keeper answered). Later refreshes start from the keeper
   * that had it.
   */
  #catchUp(behind: bigint): Promise<void> {
    this.#catchingUp ??= new Promise<void>((resolve) => {
      const keepers = [...this.#keepers.values()];
      let waiting = keepers.length;
      keepers.forEach((keeper, i) => {
        getView(keeper)
          .then(
            (view) => {
              this.#apply(view);
              if (this.epoch >= behind) {
                this.#next = i;
                resolve();
              }
            },
            () => undefined,
          )
          .finally(() => {
            if (--waiting === 0) resolve();
          });
      });
    }).finally(() => {
      this.#catchingUp = undefined;
      this.#lastRefreshAt = performance.now();
    });
    return this.#catchingUp;
  }

  async #fetch(): Promise<void> {
    if (await this.#viewFromAny()) return;
    if ((await this.#findRing()) && (await this.#viewFromAny())) return;
    if ((await this.#keepersFromBackends()) && (await this.#viewFromAny())) return;
    this.options.logger.debug("no keeper answered; keeping the last view");
  }

  /**
   * Follows the keepers the backends keep in their membership, when no keeper
   * this client knows serves a view or names the ring: every keeper the
   * cluster file lists may have been replaced (added, then the old ones
   * removed and stopped). True when they named keepers not followed yet.
   */
  async #keepersFromBackends(): Promise<boolean> {
    const now = performance.now();
    if (now - this.#backendsAskedAt < BACKENDS_ASKED_EVERY_MS) return false;
    this.#backendsAskedAt = now;
    const kept = await keepersKeptByBackends(this.options.backends(), this.options.tls);
    if (this.#closed) return false;
    const fresh = kept.filter((address) => !this.#keepers.has(address)).slice(0, MAX_FOLLOWED_KEEPERS);
    for (const address of fresh) this.#follow(address);
    if (fresh.length > 0)
      this.options.logger.debug({ keepers: fresh }, "keepers from the backends' membership");
    return fresh.length > 0;
  }

  /** Applies the view of the first keeper that serves one, starting from the last that did. */
  async #viewFromAny(): Promise<boolean> {
    const keepers = [...this.#keepers.values()];
    for (let tried = 0; tried < keepers.length; tried++) {
      const keeper = keepers[this.#next % keepers.length]!;
      try {
        this.#apply(await getView(keeper));
        return true;
      } catch {
        this.#next++;
      }
    }
    return false;
  }

  /**
   * Follows the keepers listed in the status of the first keeper that gives
   * one, when none served a view: a keeper of the cluster file that was taken
   * off the keeper ring but still runs serves no view, yet knows the ring.
   * True when that list named keepers not followed yet.
   */
  async #findRing(): Promise<boolean> {
    for (const keeper of [...this.#keepers.values()]) {
      const listed = await statusKeepers(keeper).catch(() => undefined);
      if (listed === undefined) continue;
      const fresh = listed
        .slice(0, MAX_FOLLOWED_KEEPERS)
        .filter((address) => isBackendAddress(address) && !this.#keepers.has(address));
      for (const address of fresh) this.#follow(address);
      if (fresh.length > 0)
        this.options.logger.debug({ keepers: fresh }, "keepers from an off-ring keeper's status");
      return fresh.length > 0;
    }
    return false;
  }

  #apply(view: ClusterView__Output): void {
    const epoch = wireToBigint(view.epoch);
    if (epoch < this.epoch || this.#closed) return;
    const newer = epoch > this.epoch;
    this.epoch = epoch;
    this.hasView = true;
    const members = view.backends.map(({ address, zone }) => ({ address, zone }));
    const membersKey = members
      .map(({ address, zone }) => `${address}\u0000${zone}`)
      .sort()
      .join("\n");
    if (membersKey !== this.#membersKey) {
      this.#membersKey = membersKey;
      this.options.logger.debug({ backends: members.length }, "ring membership from the keepers");
      this.options.onMembers(members);
    }
    this.#followKeepers(view.keepers);
    const dead = view.backends.filter((b) => b.state === "BACKEND_STATE_DEAD");
    this.#dead = new Set(dead.map((b) => b.address));
    this.#repairing = new Set(dead.filter((b) => b.repairing).map((b) => b.address));
    if (newer) {
      this.options.logger.debug({ epoch: epoch.toString() }, "cluster view updated");
      this.options.onNewerView(view.backends.filter((b) => !this.#dead.has(b.address)).map((b) => b.address));
    }
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    for (const keeper of this.#keepers.values()) keeper.close();
  }

  /**
   * Asks the keepers a view lists from now on, beside the cluster file's; a
   * keeper learned from an earlier view and listed no more is dropped.
   */
  #followKeepers(listed: readonly string[]): void {
    const bounded = listed.slice(0, MAX_FOLLOWED_KEEPERS).filter(isBackendAddress);
    for (const address of bounded) this.#follow(address);
    for (const [address, keeper] of this.#keepers) {
      if (!this.options.keepers.includes(address) && !bounded.includes(address)) {
        keeper.close();
        this.#keepers.delete(address);
      }
    }
  }

  #follow(address: string): void {
    if (this.#keepers.has(address) || this.#closed) return;
    const security = clientSecurity(this.options.tls, "keeper");
    this.#keepers.set(
      address,
      new (loadProtocol().Keeper)(address, security.credentials, {
        ...security.options,
        "grpc.initial_reconnect_backoff_ms": 100,
        "grpc.max_reconnect_backoff_ms": 1000,
      }),
    );
  }
}

function statusKeepers(keeper: KeeperClient): Promise<string[]> {
  return new Promise((resolve, reject) => {
    keeper.Status({}, { deadline: new Date(Date.now() + KEEPER_CALL_TIMEOUT_MS) }, (error, status) =>
      error || !status
        ? reject(error ?? new Error("empty status"))
        : resolve(status.keepers.map((k) => k.address)),
    );
  });
}

function getView(keeper: KeeperClient): Promise<ClusterView__Output> {
  return new Promise((resolve, reject) => {
    keeper.GetView({}, { deadline: new Date(Date.now() + KEEPER_CALL_TIMEOUT_MS) }, (error, view) =>
      error || !view ? reject(error ?? new Error("empty view")) : resolve(view),
    );
  });
}
