// Checks, replica by replica, that every bin is held completely by each of
// its three replicas: each replica is read directly, not through a BinClient,
// so a copy that only one replica has cannot hide a missing one.
import { BackendChannel } from "@binring/client";
import type { HashRing } from "@binring/core";
import { expect } from "vitest";

/** bin -> key -> value, as written (every key set once, non-empty). */
export type WrittenData = Map<string, Map<string, string>>;

export async function expectThreeCompleteCopies(
  ring: HashRing,
  isLive: (address: string) => boolean,
  data: WrittenData,
): Promise<void> {
  const channels = new Map<string, BackendChannel>();
  const channel = (address: string) => {
    let found = channels.get(address);
    if (!found) {
      found = new BackendChannel(address, { callTimeoutMs: 5000 });
      channels.set(address, found);
    }
    return found;
  };
  try {
    await Promise.all(
      [...data].map(async ([bin, values]) => {
        const replicas = ring.replicasFor(bin, isLive);
        expect(replicas, `replicas of ${bin}`).toHaveLength(3);
        for (const replica of replicas) {
          const target = { bin, epoch: "0", requireReady: false };
          const { keys } = await channel(replica).execute({ keys: { target, prefix: "", suffix: "" } });
          expect(keys?.keys ?? [], `keys of ${bin} on ${replica}`).toEqual([...values.keys()].sort());
          const gets = await Promise.all(
            [...values.keys()].map((key) => channel(replica).execute({ get: { target, key } })),
          );
          expect(
            gets.map(({ get }) => get?.value ?? null),
            `values of ${bin} on ${replica}`,
          ).toEqual([...values.values()]);
        }
      }),
    );
  } finally {
    for (const found of channels.values()) found.close();
  }
}
