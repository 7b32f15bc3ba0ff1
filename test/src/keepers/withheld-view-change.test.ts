// On real processes: a backup holds a set withheld for the backup after it,
// and nobody releases it (its coordinator is gone). That later backup dies;
// the keepers publish a view without it and repair its stretches onto a
// stand-in. The withholding backup forwards the set itself to the replicas
// the new view places the bin on after it — the stand-in, under the new
// epoch — and shows it once the stand-in holds it. The stand-in's repair
// read the primary, which never had the set: only that forward brings it.
import { BackendChannel } from "@binring/client";
import { HashRing, type Operation, ringMembers } from "@binring/core";
import { afterAll, describe, expect, it } from "vitest";
import { LocalCluster, waitFor, waitForSettled } from "../support/index.js";

let cluster: LocalCluster | undefined;
const channels: BackendChannel[] = [];
afterAll(async () => {
  for (const channel of channels) channel.close();
  await cluster?.stop();
});

function channel(address: string, link = false): BackendChannel {
  const made = new BackendChannel(address, { link, callTimeoutMs: 30_000 });
  channels.push(made);
  return made;
}

describe("a withheld set whose later replica dies before anyone released it", () => {
  it("is forwarded to the stand-in the new view places after it, and shown then", async () => {
    cluster = await LocalCluster.start({ backends: 4, keepers: 1 });
    const c = cluster;
    const http = (await c.keeperProcesses[0]!.waitForLine(/"http":"([^"]+)"/))[1]!;
    await waitForSettled(http, Object.fromEntries(c.addresses.map((a) => [a, "ready"])));
    const bin = "withheld";
    const [primary, backup1, backup2] = new HashRing(ringMembers(c.addresses)).replicasFor(bin);
    const standIn = c.addresses.find((a) => ![primary, backup1, backup2].includes(a))!;
    const target = { bin, epoch: "0", requireReady: false };
    const stamp = { clock: "5", writer: "0123456789abcdef", seq: 1 };
    // As a coordinator forwards it, and then dies before releasing it.
    const set: Operation = { set: { target, key: "k", value: "v", stamp, laterReplicas: [backup2!] } };
    await channel(backup1!, true).execute(set);

    await c.kill(backup2!, { withRedis: true });
    await waitForSettled(http, { [backup2!]: "dead" });
    const read = (address: string) => channel(address).execute({ get: { target, key: "k" } });
    await waitFor("the stand-in to hold the set", async () => (await read(standIn)).get?.value === "v", {
      timeoutMs: 30_000,
    });
    expect((await read(backup1!)).get?.value).toBe("v");
    expect((await read(primary!)).get?.found).toBe(false);
  }, 90_000);
});
