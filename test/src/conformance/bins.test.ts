// The Storage contract on bins of real clusters: one bin on one backend, and
// ten bins at once (same keys, exact counts) over three and six backends, and
// over three backends with mutual TLS.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BinClient } from "@binring/client";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { LocalCluster, runCli } from "../support/index.js";
import { FanOutStorage } from "./fan-out-storage.js";
import { describeStorageConformance } from "./storage-conformance.js";

for (const [backends, bins, tls] of [
  [1, 1, false],
  [3, 10, false],
  [6, 10, false],
  [3, 10, true],
] as const) {
  describe(`${bins} bin(s) over ${backends} backend(s)${tls ? " with mutual TLS" : ""}`, () => {
    let cluster: LocalCluster;
    let certs: string | undefined;
    const clients: BinClient[] = [];
    let tests = 0;
    beforeAll(async () => {
      if (tls) {
        certs = mkdtempSync(join(tmpdir(), "binring-certs-"));
        const made = await runCli(["certs", "--dir", certs]);
        expect(made.code, made.stderr).toBe(0);
      }
      cluster = await LocalCluster.start({ backends, tlsDir: certs });
    });
    afterAll(async () => {
      await Promise.all(clients.map((client) => client.close()));
      await cluster.stop();
      if (certs) rmSync(certs, { recursive: true, force: true });
    });

    describeStorageConformance(`bins on ${backends} backends${tls ? " with TLS" : ""}`, async () => {
      // Fresh bins per test: bins never see each other's keys, so this is a fresh store.
      const test = tests++;
      const names = Array.from({ length: bins }, (_, i) => `test${test}|bin:${i}`);
      return {
        sharedClock: bins > 1,
        open: () => {
          const client = new BinClient({ backends: cluster.addresses, tls: cluster.clientTls });
          clients.push(client);
          return bins === 1
            ? client.bin(names[0]!)
            : new FanOutStorage(names.map((name) => client.bin(name)));
        },
      };
    });
  });
}
