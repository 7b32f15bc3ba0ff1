// The merged cluster view as a keeper serves it: every backend on the ring,
// its published state, zone and whether it is leaving.
import type { HealthState } from "./backend-health.js";
import type { KeeperState } from "./keeper-state.js";

export interface ViewEntry {
  address: string;
  state: HealthState;
  /** Dead, and its bins not yet re-copied: see PublishedState.repairing. */
  repairing: boolean;
  /** Its failure domain; "" for none. */
  zone: string;
  /** Being decommissioned. */
  leaving: boolean;
}

export interface ClusterViewSnapshot {
  epoch: bigint;
  backends: ViewEntry[];
}

export function viewSnapshot(state: KeeperState): ClusterViewSnapshot {
  return {
    epoch: state.view.epoch,
    backends: state.backends.map((address) => {
      const published = state.view.get(address);
      return {
        address,
        state: published?.state ?? "unknown",
        repairing: published?.repairing ?? false,
        zone: state.view.member(address)?.zone ?? "",
        leaving: state.isLeaving(address),
      };
    }),
  };
}
