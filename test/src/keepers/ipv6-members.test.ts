// A cluster whose every member is an IPv6 literal ("[::1]:7100"), run as
// operators run one, with mutual TLS: `binring backend` and `binring keeper`
// processes, the cluster file, `binring admin add-backend`, `binring status`
// and a BinClient. Each part splits the address its own way (gRPC channels,
// the write path's links, HTTP endpoints, the connection probe): all must
// take the brackets.
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BinClient, type KeeperStatus } from "@binring/client";
import { afterAll, describe, expect, it } from "vitest";
import {
  type BackendProcess,
  ChildProcess,
  CLI_MAIN,
  FAST_KEEPER_ARGS,
  runCli,
  startBackendProcess,
  waitForSettled,
} from "../support/index.js";

/** A free port on ::1, or undefined where this machine has no IPv6 loopback. */
function freeV6Port(): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(undefined));
    server.listen(0, "::1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : undefined));
    });
  });
}

const keeperPort = await freeV6Port();
const backends: BackendProcess[] = [];
let keeper: ChildProcess | undefined;
let client: BinClient | undefined;

afterAll(async () => {
  await client?.close();
  await keeper?.kill("SIGKILL");
  await Promise.all(backends.map((backend) => backend.child.kill("SIGKILL")));
});

describe.skipIf(keeperPort === undefined)("IPv6 member addresses", () => {
  it("run a cluster, grow it and serve clients on [::1]", async () => {
    const dir = mkdtempSync(join(tmpdir(), "binring-ipv6-"));
    const certs = join(dir, "certs");
    const made = await runCli(["certs", "--dir", certs]);
    expect(made.code, made.stderr).toBe(0);
    const tls = ["--tls-dir", certs];
    const startBackend = () => startBackendProcess({ listen: "[::1]:0", extraArgs: tls });
    for (let i = 0; i < 3; i++) backends.push(await startBackend());
    expect(backends[0]!.address).toMatch(/^\[::1\]:\d+$/);
    const config = join(dir, "binring.json");
    writeFileSync(
      config,
      JSON.stringify({
        backends: backends.map((b) => b.address),
        keepers: [`[::1]:${keeperPort}`],
        tls: { ca: "certs/ca.pem", cert: "certs/client.pem", key: "certs/client-key.pem" },
      }),
    );

    const started = await ChildProcess.spawn(
      "keeper",
      process.execPath,
      [
        CLI_MAIN,
        "keeper",
        "--config",
        config,
        "--index",
        "0",
        "--http",
        "[::1]:0",
        ...tls,
        ...FAST_KEEPER_ARGS,
      ],
      { readyLine: /"http":"([^"]+)"/, timeoutMs: 20_000 },
    );
    keeper = started.child;
    const http = started.match[1]!;
    expect(http).toMatch(/^\[::1\]:\d+$/);
    await waitForSettled(http, Object.fromEntries(backends.map((b) => [b.address, "ready"])));

    client = await BinClient.fromConfig(config);
    const bins = Array.from({ length: 40 }, (_, i) => client!.bin(`v6-${i}`));
    await Promise.all(bins.map((bin, i) => bin.set("k", `value-${i}`)));
    await bins[0]!.listAppend("l", "a");

    const added = await startBackend();
    backends.push(added);
    const add = await runCli([
      "admin",
      "add-backend",
      added.address,
      "--wait",
      "--json",
      "--config",
      config,
      ...tls,
    ]);
    expect(add.code, add.stderr).toBe(0);

    const status = await runCli(["status", "--json", "--config", config, ...tls]);
    expect(status.code).toBe(0);
    const states = (JSON.parse(status.stdout) as KeeperStatus).backends.map((b) => [b.address, b.state]);
    expect(Object.fromEntries(states)).toEqual(Object.fromEntries(backends.map((b) => [b.address, "ready"])));

    // The client follows the membership the keeper recorded, over links to every member.
    expect(await Promise.all(bins.map((bin) => bin.get("k")))).toEqual(bins.map((_, i) => `value-${i}`));
    expect(await bins[0]!.listGet("l")).toEqual(["a"]);
    await Promise.all(bins.map((bin, i) => bin.set("k", `after-${i}`)));
    expect(await Promise.all(bins.map((bin) => bin.get("k")))).toEqual(bins.map((_, i) => `after-${i}`));
  }, 90_000);

  it("refuses the IPv6 wildcard and a bracketed non-address as members, naming them", async () => {
    const wildcard = await runCli(["admin", "add-backend", "[::]:7100", "--config", "/nonexistent.json"]);
    expect(wildcard.code).not.toBe(0);
    expect(wildcard.stderr.trim()).toBe(
      "admin add-backend: backend address [::]:7100 listens on every interface but names no host the others can reach: give the host's own address",
    );
    const bogus = await runCli(["admin", "add-backend", "[fe80::zz]:7100", "--config", "/nonexistent.json"]);
    expect(bogus.code).not.toBe(0);
    expect(bogus.stderr.trim()).toBe(
      'admin add-backend: backend address must be "host:port", got "[fe80::zz]:7100"',
    );
  });
});
