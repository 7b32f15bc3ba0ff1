// Checks, replica by replica, that every bin is held completely by each of
// its three replicas: each replica is read directly, not through a BinClient,
// so a copy that only one replica has cannot hide a missing one. And that the
// keeper log, read from the backends, ends with every intent done.
import { BackendChannel } from "@binring/client";
import type { HashRing } from "@binring/core";
import { IntentLog, type LogContents } from "@binring/keeper";
import { expect } from "vitest";
import { waitFor } from "../support/index.js";

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

/** Waits until every intent in the keeper log (the union over `backends`) is marked done. */
export async function waitForFinishedLog(backends: string[]): Promise<LogContents> {
  const channels = new Map(backends.map((address) => [address, new BackendChannel(address)]));
  const log = new IntentLog((address) => channels.get(address)!, 5000);
  try {
    return await waitFor(
      "every intent in the keeper log to be done",
      async () => {
        const contents = await log.read(backends);
        const unfinished = contents.intents.filter((intent) => !contents.done.has(intent.id));
        if (unfinished.length > 0) throw new Error(`unfinished: ${JSON.stringify(unfinished)}`);
        return contents;
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
  } finally {
    for (const channel of channels.values()) channel.close();
  }
}
