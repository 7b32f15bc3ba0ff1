// Membership that changes while the cluster runs, on real processes: grow from
// 3 backends to 6 with `binring admin add-backend --wait`, then shrink back to
// 3 *new* members by removing the original three with `remove-backend --wait`
// and killing them, all under the chaos workload recording a history (16
// clients built from the original cluster file, never restarted). Every
// checker must pass; a client made before the change reads every key it wrote
// after it; so does a client built from the original, out-of-date file.
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BinClient } from "@binring/client";
import { afterAll, describe, expect, it } from "vitest";
import {
  chaosInBackground,
  expectChaosPassed,
  LocalCluster,
  MULTI_KEEPER_ARGS,
  runCli,
  waitFor,
} from "../support/index.js";

let cluster: LocalCluster | undefined;
const clients: BinClient[] = [];
afterAll(async () => {
  for (const client of clients) await client.close();
  await cluster?.stop();
});

const KEYS = 200;

describe("a running cluster grows and shrinks", () => {
  it("from 3 to 6 backends and back to 3 new ones, under a recorded workload that passes every checker", async () => {
    cluster = await LocalCluster.start({ backends: 3, keepers: 3, keeperArgs: MULTI_KEEPER_ARGS });
    const c = cluster;
    const dir = mkdtempSync(join(tmpdir(), "binring-membership-"));
    const original = join(dir, "original.json");
    copyFileSync(c.configPath, original);
    const originals = [...c.addresses];

    const before = await BinClient.fromConfig(original, { viewRefreshMs: 200 });
    clients.push(before);
    for (let i = 0; i < KEYS; i++) await before.bin(`m${i % 20}`).set(`k${i}`, `v${i}`);

    const out = join(dir, "chaos");
    const workload = chaosInBackground(
      ["--config", original, "--duration", "5m", "--clients", "8", "--seed", "7", "--out", out],
      150_000,
    );

    const added: string[] = [];
    for (let i = 0; i < 3; i++) {
      const address = await c.startExtraBackend();
      const run = await runCli(["admin", "add-backend", address, "--config", original, "--wait", "--json"], {
        timeoutMs: 60_000,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        action: "add-backend",
        address,
        changed: true,
        status: "member",
      });
      added.push(address);
    }
    for (const address of originals) {
      const run = await runCli(["admin", "remove-backend", address, "--config", original, "--wait"], {
        timeoutMs: 60_000,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`${address} has left the ring`));
      await c.kill(address, { withRedis: true });
    }
    // Every change above happened while the workload ran.
    expect(workload.ended()).toBe(false);
    // Done: the workload stops now and checks what it recorded.
    workload.end();
    const status = await runCli(["status", "--config", original, "--json"]);
    const members = (JSON.parse(status.stdout) as { backends: { address: string; state: string }[] })
      .backends;
    expect(members.map((b) => b.address).sort()).toEqual([...added].sort());
    expect(members.every((b) => b.state === "ready")).toBe(true);

    expectChaosPassed(await workload.finished);

    // The client made before the change, never restarted, and one made from the original file now.
    const after = await BinClient.fromConfig(original, { viewRefreshMs: 200 });
    clients.push(after);
    for (const client of [before, after]) {
      await waitFor("the client's ring to be the new members", async () =>
        client.ring.members.every((member) => added.includes(member.id)) ? true : undefined,
      );
      for (let i = 0; i < KEYS; i++) expect(await client.bin(`m${i % 20}`).get(`k${i}`)).toBe(`v${i}`);
    }
    // Bad requests change nothing and say why in one line.
    const refused = await runCli(["admin", "remove-backend", added[0]!, "--config", original]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(/would leave 2 members; a cluster needs at least 3/);
    const stranger = await runCli(["admin", "remove-backend", originals[0]!, "--config", original]);
    expect(stranger.code).toBe(1);
    expect(stranger.stderr.trim()).toMatch(/is not a member of this cluster/);
  }, 240_000);
});
