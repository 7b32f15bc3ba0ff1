// The Storage contract on bins of real clusters: one bin on one backend, and
// ten bins at once (same keys, exact counts) over three and six backends.
import { BinClient } from "@binring/client";
import { afterAll, beforeAll, describe } from "vitest";
import { LocalCluster } from "../support/index.js";
import { FanOutStorage } from "./fan-out-storage.js";
import { describeStorageConformance } from "./storage-conformance.js";

for (const [backends, bins] of [
  [1, 1],
  [3, 10],
  [6, 10],
] as const) {
  describe(`${bins} bin(s) over ${backends} backend(s)`, () => {
    let cluster: LocalCluster;
    const clients: BinClient[] = [];
    let tests = 0;
    beforeAll(async () => {
      cluster = await LocalCluster.start({ backends });
    });
    afterAll(async () => {
      await Promise.all(clients.map((client) => client.close()));
      await cluster.stop();
    });

    describeStorageConformance(`bins on ${backends} backends`, async () => {
      // Fresh bins per test: bins never see each other's keys, so this is a fresh store.
      const test = tests++;
      const names = Array.from({ length: bins }, (_, i) => `test${test}|bin:${i}`);
      return {
        sharedClock: bins > 1,
        open: () => {
          const client = new BinClient({ backends: cluster.addresses });
          clients.push(client);
          return bins === 1
            ? client.bin(names[0]!)
            : new FanOutStorage(names.map((name) => client.bin(name)));
        },
      };
    });
  });
}
