// Membership from the command line, on real processes: `binring backend --join`
// adds itself to a running cluster and is filled; `binring admin` refuses what
// it must in one line, recording nothing (a member under a second name too);
// and a backend added while another is dead is filled all the same.
import { BinClient } from "@binring/client";
import { afterAll, describe, expect, it } from "vitest";
import {
  type BackendProcess,
  keeperStatus,
  LocalCluster,
  runCli,
  startBackendProcess,
  waitFor,
  waitForSettled,
} from "../support/index.js";

let cluster: LocalCluster | undefined;
const processes: BackendProcess[] = [];
const clients: BinClient[] = [];
afterAll(async () => {
  for (const client of clients) await client.close();
  for (const backend of processes) await backend.child.kill("SIGKILL");
  await cluster?.stop();
});

describe("binring backend --join and binring admin", () => {
  it("a backend started with --join joins the ring, while another is dead, and holds its share", async () => {
    cluster = await LocalCluster.start({ backends: 4, keepers: 1 });
    const c = cluster;
    const http = (await c.keeperProcesses[0]!.waitForLine(/"http":"([^"]+)"/))[1]!;
    await waitForSettled(http, Object.fromEntries(c.addresses.map((a) => [a, "ready"])));
    const client = await BinClient.fromConfig(c.configPath, { viewRefreshMs: 200 });
    clients.push(client);
    for (let i = 0; i < 100; i++) await client.bin(`j${i}`).set("k", `v${i}`);

    const dead = c.addresses[3]!;
    await c.kill(dead, { withRedis: true });
    await waitForSettled(http, { [dead]: "dead" });

    // Nothing answers there: refused in one line, nothing recorded.
    const nowhere = await runCli(["admin", "add-backend", "127.0.0.1:1", "--config", c.configPath]);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr.trim().split("\n")).toHaveLength(1);
    expect(nowhere.stderr).toMatch(/nothing answers at 127\.0\.0\.1:1/);
    const malformed = await runCli(["admin", "add-backend", "nowhere", "--config", c.configPath]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/backend address must be "host:port", got "nowhere"/);

    // A member under another name: the same process twice on the ring would hold two copies of a bin.
    const member = c.addresses[0]!;
    const alias = `localhost:${member.split(":")[1]}`;
    const twice = await runCli(["admin", "add-backend", alias, "--config", c.configPath]);
    expect(twice.code).toBe(1);
    expect(twice.stderr.trim().split("\n")).toHaveLength(1);
    expect(twice.stderr).toContain(
      `${alias} reaches the backend that is already the member ${member}: one process on the ring twice would hold two copies of a bin; nothing recorded`,
    );

    const joined = await startBackendProcess({ extraArgs: ["--join", "--config", c.configPath] });
    processes.push(joined);
    const status = await waitForSettled(http, { [joined.address]: "ready", [dead]: "dead" }, 30_000);
    expect(status.backends.map((b) => b.address)).not.toContain("127.0.0.1:1");
    await waitFor("the client's ring to hold the new backend", () =>
      client.ring.members.some((member) => member.id === joined.address),
    );
    const share = Array.from({ length: 100 }, (_, i) => `j${i}`).filter((bin) =>
      client.placement(client.bin(bin).point).replicas.includes(joined.address),
    );
    expect(share.length).toBeGreaterThan(0);
    for (let i = 0; i < 100; i++) expect(await client.bin(`j${i}`).get("k")).toBe(`v${i}`);
    const again = await runCli(["admin", "add-backend", joined.address, "--config", c.configPath]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/is already a member: nothing changed/);
    expect((await keeperStatus(http)).backends).toHaveLength(5);
  }, 120_000);
});
