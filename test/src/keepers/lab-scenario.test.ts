// The lab scenario: 4 backends listed, 3 started, 1 keeper. Kill one, wait for
// repair, kill another, start the fourth (empty), kill the third: every value
// and list is intact after each step, and no call returns an error.
import { BinClient } from "@binring/client";
import { afterAll, expect, it } from "vitest";
import { LocalCluster, waitForSettled } from "../support/index.js";
import { ExpectedData } from "./model.js";

let cluster: LocalCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

it("survives kill, kill, empty join, kill with every write intact", async () => {
  cluster = await LocalCluster.start({ backends: 4, running: 3, keepers: 1 });
  const [a, b, c, d] = cluster.addresses as [string, string, string, string];
  const http = await waitForKeeperHttp(cluster);
  await waitForSettled(http, { [a]: "ready", [b]: "ready", [c]: "ready" });
  const client = new BinClient({ backends: cluster.addresses, keepers: cluster.keepers, viewRefreshMs: 200 });
  const bins = ["alice", "bob", "carol", "dave", "", "日本"];
  const expected = new ExpectedData();

  await expected.writeRound(client, bins, 0);
  await expected.check(client);

  await cluster.kill(a, { withRedis: true });
  await waitForSettled(http, { [a]: "dead" });
  await expected.check(client);
  await expected.writeRound(client, bins, 1);

  await cluster.kill(b, { withRedis: true });
  await waitForSettled(http, { [b]: "dead" });
  await expected.check(client);
  await expected.writeRound(client, bins, 2);

  await cluster.restart(d, { redis: "empty" });
  const joined = await waitForSettled(http, { [d]: "ready" });
  expect(joined.completedRepairs.some((r) => r.kind === "fill" && r.backend === d)).toBe(true);
  await expected.check(client);
  await expected.writeRound(client, bins, 3);

  await cluster.kill(c, { withRedis: true });
  await waitForSettled(http, { [c]: "dead" });
  await expected.check(client);
  await client.close();
}, 120_000);

async function waitForKeeperHttp(running: LocalCluster): Promise<string> {
  const keeper = running.keeperProcesses[0]!;
  const match = await keeper.waitForLine(/"http":"([^"]+)"/);
  return match[1]!;
}
