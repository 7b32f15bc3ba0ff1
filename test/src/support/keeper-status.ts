// Reading a keeper's /status, and waiting on what it reports.
import { waitFor } from "./wait-for.js";

export interface KeeperStatus {
  epoch: string;
  backends: { address: string; state: string; keys: number | null; clock: string | null }[];
  repairs: { kind: string; backend: string; state: string; entriesCopied?: number }[];
  completedRepairs: { kind: string; backend: string; entries: number; ms: number }[];
}

export async function keeperStatus(http: string): Promise<KeeperStatus> {
  const response = await fetch(`http://${http}/status`);
  return (await response.json()) as KeeperStatus;
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
      return matches && status.repairs.length === 0 ? status : undefined;
    },
    { timeoutMs, intervalMs: 50 },
  );
}
