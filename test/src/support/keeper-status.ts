// Reading a keeper's HTTP /status, and waiting on what it reports. The
// document has the shape @binring/client reads from Keeper.Status.
import type { KeeperStatus } from "@binring/client";
import { waitFor } from "./wait-for.js";

export type { KeeperStatus };

export async function keeperStatus(http: string): Promise<KeeperStatus> {
  const response = await fetch(`http://${http}/status`, { signal: AbortSignal.timeout(5000) });
  return (await response.json()) as KeeperStatus;
}

/** What a keeper reports of each backend's state and of its repairs, for a timeout's message. */
function backendsAndRepairs(status: KeeperStatus): string {
  const repairs = status.repairs.map((r) => `${r.kind} ${r.backend} ${r.state}`);
  return `${status.backends.map((b) => `${b.address} ${b.state}`).join(", ")}; repairs ${JSON.stringify(repairs)}`;
}

/** Waits until the keeper reports every listed backend in the state and no repair queued or running. */
export function waitForSettled(
  http: string,
  states: Record<string, string>,
  timeoutMs = 30_000,
): Promise<KeeperStatus> {
  const description = Object.entries(states)
    .map(([address, state]) => `${address} ${state}`)
    .join(", ");
  return waitFor(
    `keeper to report ${description} with no repair pending`,
    async () => {
      const status = await keeperStatus(http);
      const matches = Object.entries(states).every(
        ([address, state]) => status.backends.find((b) => b.address === address)?.state === state,
      );
      if (matches && status.repairs.length === 0) return status;
      // Thrown, so a timeout names what was still unsettled.
      throw new Error(backendsAndRepairs(status));
    },
    { timeoutMs, intervalMs: 50 },
  );
}

/**
 * Waits until the listed keepers — exactly the live ones — report the backends
 * in the states given, no repair queued, running or waiting on the keeper log,
 * each other alive and every unlisted keeper dead, every backend owned by one
 * of them, and one epoch across them all (the same view).
 */
export function waitForKeepersSettled(
  https: string[],
  states: Record<string, string>,
  timeoutMs = 30_000,
): Promise<KeeperStatus[]> {
  const description = Object.entries(states)
    .map(([address, state]) => `${address} ${state}`)
    .join(", ");
  return waitFor(
    `${https.length} keepers to agree on ${description} with no repair pending`,
    async () => {
      const statuses = await Promise.all(https.map((http) => keeperStatus(http)));
      const addresses = new Set(statuses.map((status) => status.address));
      const settled = statuses.every(
        (status) =>
          status.repairs.length === 0 &&
          status.keepers.every((keeper) => keeper.alive === addresses.has(keeper.address)) &&
          status.backends.every((backend) => backend.owner !== null && addresses.has(backend.owner)) &&
          Object.entries(states).every(
            ([address, state]) => status.backends.find((b) => b.address === address)?.state === state,
          ) &&
          status.epoch === statuses[0]!.epoch,
      );
      if (settled) return statuses;
      // Thrown, so a timeout names what was still unsettled.
      throw new Error(
        statuses
          .map(
            (status) =>
              `${status.keeper} epoch ${status.epoch}: ${backendsAndRepairs(status)}; ` +
              `keepers ${status.keepers.map((k) => `${k.address}${k.alive ? "" : " dead"} [${k.slice.length}]`).join(", ")}`,
          )
          .join(" | "),
      );
    },
    { timeoutMs, intervalMs: 50 },
  );
}
