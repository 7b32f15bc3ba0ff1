// A bin's replicas as the keepers' view at this backend's epoch places them,
// for the one thing a backend must know it for: forwarding a set it withholds
// when no coordinator released it (withheld-release.ts). The view is the one
// clients place bins by, fetched from the keepers with the clients' own code
// (client ClusterView, the ring of the members it lists), only once such a
// forward is first needed. Without keepers there is no view: the set's own
// replica list rules, as every writer's does.
import { ClusterView, REPLICAS } from "@binring/client";
import { HashRing, ringPoint, type TlsFiles } from "@binring/core";
import type { Logger } from "pino";
import type { BackendNode } from "./backend-node.js";

/** How often the view is fetched while no forward asks for it sooner (a forward asks whenever it is behind). */
const VIEW_REFRESH_MS = 60_000;

export type BinPlacement =
  /** The bin's replicas under the view at this backend's epoch (adopted if newer), and this backend's member address. */
  | { epoch: bigint; replicas: string[]; self: string }
  /** No keeper is on record: a cluster without keepers. */
  | "no keepers"
  /** No view at or past this backend's epoch yet, or no keeper has named this backend's member address. */
  | undefined;

export class BackendPlacement {
  #view: ClusterView | undefined;
  #ring: HashRing | undefined;

  constructor(
    private readonly node: BackendNode,
    private readonly tls: TlsFiles | undefined,
    private readonly logger: Logger,
  ) {}

  /**
   * A view older than this backend's epoch is fetched again; a newer one —
   * keepers mint epochs faster than their heartbeats carry them while they
   * churn — is adopted first, as its heartbeat would be, so no caller on a
   * view between the two reads this backend by a placement the forward did
   * not follow.
   */
  async of(bin: string): Promise<BinPlacement> {
    const view = this.#view ?? (await this.#open());
    if (!view) return "no keepers";
    await view.refresh(this.node.epoch);
    const self = await this.node.membership.self();
    if (view.epoch < this.node.epoch || !this.#ring || self === undefined) return undefined;
    this.node.adoptEpoch(view.epoch);
    const replicas = this.#ring.replicasAt(ringPoint(bin), (id) => !view.isDead(id), REPLICAS);
    return { epoch: view.epoch, replicas, self };
  }

  async #open(): Promise<ClusterView | undefined> {
    const keepers = await this.node.membership.keepers();
    if (keepers.length === 0 || this.#view) return this.#view;
    this.#view = new ClusterView({
      keepers,
      tls: this.tls,
      onNewerView: () => undefined,
      onMembers: (members) => {
        this.#ring = new HashRing(
          members.map(({ address, zone }) => (zone === "" ? { id: address } : { id: address, zone })),
        );
      },
      backends: () => this.#ring?.members.map((member) => member.id) ?? [],
      refreshIntervalMs: VIEW_REFRESH_MS,
      minRefreshGapMs: 100,
      logger: this.logger,
    });
    return this.#view;
  }

  close(): void {
    this.#view?.close();
  }
}
