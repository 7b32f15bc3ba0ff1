// Mutual TLS and roles on a real cluster (`binring certs`, `--tls-dir`, the
// cluster file's "tls"): who cannot call at all, what a client certificate may
// not call, a backend death, its repair and a keeper takeover over TLS, and
// certificates renewed under load.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BackendChannel, BinClient, fetchKeeperStatus, removeKeeper } from "@binring/client";
import { PermissionDeniedError, roleFiles, type TlsFiles } from "@binring/core";
import { PeerChannel } from "@binring/keeper";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  LocalCluster,
  MULTI_KEEPER_ARGS,
  runCli,
  servedSerial,
  waitFor,
  waitForKeepersSettled,
} from "../support/index.js";

let dir: string;
let certs: string;
let cluster: LocalCluster;
let client: BinClient;
const PRELOADED = 200;

async function makeCerts(into: string): Promise<void> {
  const made = await runCli(["certs", "--dir", into]);
  expect(made.code, made.stderr).toBe(0);
}

/** The outcome of a call that must not complete: the error it failed with. */
async function failure(call: Promise<unknown>): Promise<Error> {
  return call.then(
    () => {
      throw new Error("the call completed");
    },
    (error: Error) => error,
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "binring-tls-"));
  certs = join(dir, "certs");
  await makeCerts(certs);
  cluster = await LocalCluster.start({
    backends: 4,
    keepers: 2,
    keeperArgs: MULTI_KEEPER_ARGS,
    tlsDir: certs,
  });
  client = await BinClient.fromConfig(cluster.configPath, { callTimeoutMs: 5000 });
  await waitForKeepersSettled(keeperHttp(), allReady());
  for (let i = 0; i < PRELOADED; i++) await client.bin(`bin-${i % 20}`).set(`k${i}`, `v${i}`);
}, 90_000);

afterAll(async () => {
  await client?.close();
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function keeperHttp(): string[] {
  return cluster.keeperHttp.filter((http): http is string => http !== undefined);
}

function allReady(): Record<string, string> {
  return Object.fromEntries(cluster.backends.map((address) => [address, "ready"]));
}

async function expectPreloadedIntact(): Promise<void> {
  for (let i = 0; i < PRELOADED; i++) expect(await client.bin(`bin-${i % 20}`).get(`k${i}`)).toBe(`v${i}`);
}

describe("a caller without a certificate of the cluster's CA", () => {
  it("cannot complete any call, with no certificate or with one from another CA", async () => {
    const other = join(dir, "other-ca");
    await makeCerts(other);
    const strangers: [string, TlsFiles | undefined][] = [
      ["plaintext", undefined],
      ["another CA", roleFiles(other, "keeper")],
      // Trusting the cluster's CA does not help a certificate another CA signed.
      ["another CA's certificate", { ...roleFiles(other, "keeper"), ca: roleFiles(certs, "client").ca }],
    ];
    for (const [who, tls] of strangers) {
      const stranger = new BinClient({ backends: cluster.backends, tls, callTimeoutMs: 1500 });
      await expect(stranger.bin("bin-0").get("k0"), who).rejects.toThrow();
      await stranger.close();
      const channel = new BackendChannel(cluster.backends[0]!, { tls, callTimeoutMs: 1500 });
      await expect(channel.drop([{ start: 0, end: 2 ** 32 }], 0n), who).rejects.toThrow();
      await expect(channel.heartbeat({}), who).rejects.toThrow();
      channel.close();
      await expect(fetchKeeperStatus(cluster.keepers[0]!, 1500, tls), who).rejects.toThrow();
    }
    await expectPreloadedIntact();
  }, 60_000);
});

describe("a client certificate", () => {
  it("reads and writes, and is refused every control call with PERMISSION_DENIED naming the call and the role", async () => {
    const tls = roleFiles(certs, "client");
    await client.bin("mine").set("k", "v");
    expect(await client.bin("mine").get("k")).toBe("v");
    expect((await fetchKeeperStatus(cluster.keepers[0]!, 3000, tls)).backends).toHaveLength(4);

    const channel = new BackendChannel(cluster.backends[0]!, { tls });
    const entry = {
      bin: "bin-0",
      key: "k0",
      kind: "set" as const,
      value: "forged",
      stamp: { clock: 2n ** 40n, writer: "f".repeat(16), seq: 1 },
    };
    const controlCalls: [string, Promise<unknown>][] = [
      ["Drop", channel.drop([{ start: 0, end: 2 ** 32 }], 0n)],
      ["Empty", channel.empty("any", 0n)],
      ["Apply", channel.apply([entry], 0n)],
      [
        "Scan",
        (async () => {
          for await (const _ of channel.scan([{ start: 0, end: 2 ** 32 }], 100)) return;
        })(),
      ],
      ["Heartbeats", channel.heartbeat({ readiness: "READINESS_READY", leaseMs: "3600000" })],
    ];
    for (const [call, outcome] of controlCalls) {
      const error = await failure(outcome);
      expect(error, call).toBeInstanceOf(PermissionDeniedError);
      expect(error.message).toContain(`StorageControl.${call} needs a keeper certificate`);
      expect(error.message).toContain("the caller presented a client certificate");
    }
    channel.close();
    const peer = new PeerChannel(cluster.keepers[0]!, tls);
    const beat = await failure(peer.beat({ keeper: "forged:1" }, 2000));
    expect((beat as { code?: number }).code).toBe(7);
    expect(beat.message).toContain("KeeperPeer.Beat needs a keeper certificate");
    peer.close();
    const change = await failure(removeKeeper(cluster.keepers[0]!, cluster.keepers[0]!, tls));
    expect((change as { code?: number }).code).toBe(7);
    expect(change.message).toContain("KeeperAdmin.RemoveKeeper needs an admin or keeper certificate");

    // A server is checked by its role too: a keeper's address does not pass for a backend's.
    const misdirected = new BackendChannel(cluster.keepers[0]!, { tls, callTimeoutMs: 1500 });
    await expect(misdirected.heartbeat({}, 1500)).rejects.toThrow(/not a backend certificate/);
    misdirected.close();

    // Nor may a backend's certificate: backends call no one.
    const backendCert = new BackendChannel(cluster.backends[1]!, { tls: roleFiles(certs, "backend") });
    expect(await failure(backendCert.drop([{ start: 0, end: 2 ** 32 }], 0n))).toBeInstanceOf(
      PermissionDeniedError,
    );
    backendCert.close();

    // The admin certificate may call data calls, not control calls.
    const admin = new BackendChannel(cluster.backends[1]!, { tls: roleFiles(certs, "admin") });
    expect(await failure(admin.drop([{ start: 0, end: 2 ** 32 }], 0n))).toBeInstanceOf(PermissionDeniedError);
    admin.close();

    await expectPreloadedIntact();
    expect(await client.bin("bin-0").get("k0")).toBe("v0");
  }, 60_000);
});

describe("the keepers over TLS", () => {
  it("repair a dead backend's bins and take a dead keeper's slice over; binring status reads them with the cluster file's certificate", async () => {
    const [victim] = cluster.backends;
    await cluster.killBackend(0, "backend");
    await waitFor(
      `the repair of ${victim}`,
      async () => {
        // Only the keeper that owns the victim lists the repair it ran.
        const statuses = await Promise.all(
          cluster.keepers.map((keeper) => fetchKeeperStatus(keeper, 2000, cluster.clientTls)),
        );
        return (
          statuses.every((s) => s.backends.find((b) => b.address === victim)?.state === "dead") &&
          statuses.some((s) => s.completedRepairs.some((r) => r.backend === victim))
        );
      },
      { timeoutMs: 30_000 },
    );
    await expectPreloadedIntact();
    await cluster.killKeeper(0);
    await waitFor(
      "keeper 1 owning every backend",
      async () => {
        const status = await fetchKeeperStatus(cluster.keepers[1]!, 2000, cluster.clientTls);
        return (
          status.keepers.filter((k) => k.alive).length === 1 &&
          status.backends.filter((b) => b.address !== victim).every((b) => b.owner === cluster.keepers[1])
        );
      },
      { timeoutMs: 30_000 },
    );
    await cluster.restartBackend(0);
    await cluster.restartKeeper(0);
    await waitForKeepersSettled(keeperHttp(), allReady());
    const shown = await runCli(["status", "--config", cluster.configPath, "--json"]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).backends).toHaveLength(4);
    const asAdmin = await runCli(["status", "--config", cluster.configPath, "--tls-dir", certs, "--json"]);
    expect(asAdmin.code, asAdmin.stderr).toBe(0);
    await expectPreloadedIntact();
  }, 120_000);
});

describe("renewed certificates", () => {
  it("are served to new connections after SIGHUP while calls keep succeeding", async () => {
    const backend = cluster.members[2]!;
    const before = await servedSerial(backend.address, cluster.clientTls!);
    let writes = 0;
    let failures = 0;
    let running = true;
    const load = (async () => {
      while (running) {
        try {
          await client.bin(`rotation-${writes % 7}`).set(`k${writes}`, "v");
          writes++;
        } catch {
          failures++;
        }
      }
    })();
    await makeCerts(certs);
    for (const member of cluster.members) member.backend?.child.signal("SIGHUP");
    for (const keeper of cluster.keeperProcesses) keeper?.signal("SIGHUP");
    await waitFor(
      "the backend serving its renewed certificate",
      async () => (await servedSerial(backend.address, cluster.clientTls!)) !== before,
      { timeoutMs: 10_000 },
    );
    // A client made now connects with the renewed client certificate.
    const fresh = await BinClient.fromConfig(cluster.configPath);
    await fresh.bin("rotation-new").set("k", "v");
    expect(await fresh.bin("rotation-new").get("k")).toBe("v");
    await fresh.close();
    const target = writes + 200;
    await waitFor("200 more writes", () => writes >= target, { timeoutMs: 20_000 });
    running = false;
    await load;
    expect(failures).toBe(0);
    await expectPreloadedIntact();
  }, 60_000);
});

describe("binring backend and keeper", () => {
  it("refuse plaintext on an address other machines reach unless --insecure, and name a missing certificate file", async () => {
    const refused = await runCli(["backend", "--listen", "0.0.0.0:0", "--store", "memory"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toMatch(
      /refusing to serve 0\.0\.0\.0:0 without TLS: .*give --tls-dir DIR .* or --insecure/,
    );
    const missing = await runCli([
      "backend",
      "--listen",
      "127.0.0.1:0",
      "--store",
      "memory",
      "--tls-dir",
      join(dir, "nowhere"),
    ]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toContain(
      `CA certificate ${join(dir, "nowhere", "ca.pem")} cannot be read: ENOENT`,
    );
    const keeper = await runCli([
      "keeper",
      "--config",
      cluster.configPath,
      "--index",
      "0",
      "--listen",
      "0.0.0.0:0",
    ]);
    expect(keeper.code).not.toBe(0);
    expect(keeper.stderr).toMatch(/binring keeper: refusing to serve 0\.0\.0\.0:0 without TLS/);
    const days = await runCli(["certs", "--dir", join(dir, "bad"), "--days", "99999"]);
    expect(days.code).toBe(2);
    expect(days.stderr.trim()).toBe("--days must be at most 3650, got 99999");
  });
});
