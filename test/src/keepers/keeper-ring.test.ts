// The keeper ring changed from the command line, on real processes: a keeper
// the cluster file does not list, started with `binring keeper --advertise
// --join`, takes its slice; `binring admin remove-keeper --wait` takes one of
// the file's keepers off the ring, after which each can be killed with
// nothing taken over; a client built from the original file follows the views
// to the added keeper and goes on reading and writing, and so do `binring
// status`, `binring admin` and a client created then, once no keeper of the
// file is on the ring; refusals are one line and change nothing.
import { BinClient } from "@binring/client";
import { KeeperRing } from "@binring/keeper";
import { afterAll, describe, expect, it } from "vitest";
import {
  ChildProcess,
  CLI_MAIN,
  freePort,
  keeperStatus,
  LocalCluster,
  runCli,
  waitForKeepersSettled,
} from "../support/index.js";

let cluster: LocalCluster | undefined;
const extra: ChildProcess[] = [];
const clients: BinClient[] = [];
afterAll(async () => {
  for (const client of clients) await client.close();
  for (const child of extra) await child.kill("SIGKILL");
  await cluster?.stop();
});

const BINS = 60;

describe("binring keeper --join and binring admin add-keeper / remove-keeper", () => {
  it("grows the keeper ring by a keeper the file does not list, then shrinks it by one the file does", async () => {
    cluster = await LocalCluster.start({ backends: 4, keepers: 2 });
    const c = cluster;
    const https = await Promise.all(
      c.keeperProcesses.map(async (child) => (await child!.waitForLine(/"http":"([^"]+)"/))[1]!),
    );
    const ready = Object.fromEntries(c.addresses.map((address) => [address, "ready"]));
    await waitForKeepersSettled(https, ready);
    const client = await BinClient.fromConfig(c.configPath, { viewRefreshMs: 200 });
    clients.push(client);
    for (let i = 0; i < BINS; i++) await client.bin(`r${i}`).set("k", `v${i}`);

    // Refusals: one line each, nothing recorded.
    const nobody = await runCli(["admin", "add-keeper", "127.0.0.1:1", "--config", c.configPath]);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr.trim().split("\n")).toHaveLength(1);
    expect(nobody.stderr).toMatch(/no keeper answers at 127\.0\.0\.1:1: nothing recorded/);
    const stranger = await runCli(["admin", "remove-keeper", "127.0.0.1:2", "--config", c.configPath]);
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toMatch(/"127\.0\.0\.1:2" is not a keeper of this cluster/);
    expect((await keeperStatus(https[0]!)).keepers).toHaveLength(2);

    const address = `127.0.0.1:${await freePort()}`;
    const started = await ChildProcess.spawn(
      "keeper-added",
      process.execPath,
      [CLI_MAIN, "keeper", "--config", c.configPath, "--advertise", address, "--join"],
      { readyLine: /"http":"([^"]+)"/ },
    );
    extra.push(started.child);
    const addedHttp = started.match[1]!;
    await started.child.waitForLine(/joined the keeper ring/, 20_000);
    const grown = await waitForKeepersSettled([...https, addedHttp], ready, 30_000);
    const added = grown[2]!;
    expect(added.offRing).toBe(false);
    expect(added.keepers.map((k) => k.address).sort()).toEqual([...c.keepers, address].sort());
    // Each keeper owns its stretch of the grown ring (the added one's may be empty with few backends).
    const slices = new KeeperRing([...c.keepers, address]).slices(c.addresses, () => true);
    for (const status of grown) {
      const self = status.keepers.find((k) => k.self)!;
      expect(self.slice).toEqual([...(slices.get(self.address) ?? [])].sort());
    }

    const removed = c.keepers[0]!;
    const remove = await runCli(
      ["admin", "remove-keeper", removed, "--config", c.configPath, "--wait", "--json", "--timeout", "60s"],
      { timeoutMs: 70_000 },
    );
    expect(remove.code, remove.stderr).toBe(0);
    expect(JSON.parse(remove.stdout)).toMatchObject({
      action: "remove-keeper",
      address: removed,
      changed: true,
    });
    expect((await keeperStatus(https[0]!)).offRing).toBe(true);

    // Off the ring it owns nothing: killing it moves no slice and takes nothing over.
    await c.killKeeper(0);
    const shrunk = await waitForKeepersSettled([https[1]!, addedHttp], ready, 30_000);
    for (const status of shrunk) {
      expect(status.keepers.map((k) => k.address).sort()).toEqual([c.keepers[1]!, address].sort());
    }

    // The last keeper of the file goes too: only the added keeper is left on the ring.
    const last = await runCli(
      ["admin", "remove-keeper", c.keepers[1]!, "--config", c.configPath, "--wait", "--timeout", "60s"],
      { timeoutMs: 70_000 },
    );
    expect(last.code, last.stderr).toBe(0);
    expect(last.stdout).toMatch(/has left the keeper ring: it may be stopped/);

    // Neither of the file's keepers is on the ring now (one stopped, one answering from off it):
    // commands built from the file follow the answering one's list to the added keeper.
    const status = await runCli(["status", "--config", c.configPath, "--json"]);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ address, offRing: false });
    const grownBy = await c.startExtraBackend();
    const grow = await runCli(
      ["admin", "add-backend", grownBy, "--config", c.configPath, "--wait", "--json", "--timeout", "60s"],
      { timeoutMs: 70_000 },
    );
    expect(grow.code, grow.stderr).toBe(0);
    expect(JSON.parse(grow.stdout)).toMatchObject({ action: "add-backend", address: grownBy, changed: true });
    // So does a client created now from the file: no keeper it names serves a view.
    const late = await BinClient.fromConfig(c.configPath, { viewRefreshMs: 200 });
    clients.push(late);
    for (let i = 0; i < BINS; i++) expect(await late.bin(`r${i}`).get("k")).toBe(`v${i}`);
    await c.killKeeper(1);

    // Every keeper the file names is stopped now: a client and commands built from the file find the
    // ring through the keepers the backends keep in their membership.
    const stranded = await BinClient.fromConfig(c.configPath, { viewRefreshMs: 200 });
    clients.push(stranded);
    for (let i = 0; i < BINS; i++) expect(await stranded.bin(`r${i}`).get("k")).toBe(`v${i}`);
    const found = await runCli(["status", "--config", c.configPath, "--json"]);
    expect(found.code, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout)).toMatchObject({ address, offRing: false });

    // The client built from the original file learned the added keeper from the views: a backend's
    // death moves the epoch on, and the client follows it there, reading everything and writing on.
    const dead = c.addresses[3]!;
    await c.kill(dead, { withRedis: true });
    await waitForKeepersSettled([addedHttp], { ...ready, [grownBy]: "ready", [dead]: "dead" }, 30_000);
    for (let i = 0; i < BINS; i++) expect(await client.bin(`r${i}`).get("k")).toBe(`v${i}`);
    await client.bin("after").set("k", "written");
    expect(await client.bin("after").get("k")).toBe("written");
  }, 150_000);
});
