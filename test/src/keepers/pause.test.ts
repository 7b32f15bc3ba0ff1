// Slow is not dead (HAZARDS.md 9): with production timing, a backend paused
// for 2 s (SIGSTOP) is never declared dead and causes no repair, and reads and
// writes go on without errors; its writes simply wait for it to resume.
import { BinClient } from "@binring/client";
import { afterAll, expect, it } from "vitest";
import { keeperStatus, LocalCluster, waitForSettled } from "../support/index.js";
import { ExpectedData } from "./model.js";

let cluster: LocalCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

it("a 2 s pause triggers no death and no repair", async () => {
  cluster = await LocalCluster.start({ backends: 4, keepers: 1, keeperArgs: [] });
  const http = (await cluster.keeperProcesses[0]!.waitForLine(/"http":"([^"]+)"/))[1]!;
  await waitForSettled(http, Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])));
  const client = new BinClient({ backends: cluster.addresses, keepers: cluster.keepers });
  const expected = new ExpectedData();
  const bins = ["p1", "p2", "p3", "p4"];
  await expected.writeRound(client, bins, 0);
  const before = await keeperStatus(http);

  const paused = cluster.members[0]!.backend!.child;
  paused.signal("SIGSTOP");
  const states = new Set<string>();
  const watch = setInterval(() => {
    void keeperStatus(http).then((s) => {
      for (const b of s.backends) if (b.address === cluster!.addresses[0]) states.add(b.state);
    });
  }, 100);
  // The pause itself is the scenario: it must last 2 s of wall time.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  paused.signal("SIGCONT");
  await expected.writeRound(client, bins, 1);
  // Give the keeper two more heartbeats to (wrongly) act on the pause.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  clearInterval(watch);

  const after = await keeperStatus(http);
  expect(states.has("dead")).toBe(false);
  expect(after.backends.every((b) => b.state === "ready")).toBe(true);
  expect(after.completedRepairs).toEqual(before.completedRepairs);
  await expected.check(client);
  await client.close();
}, 60_000);
