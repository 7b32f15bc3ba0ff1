// A backend's own forward of a set it withholds (write-fan-out.ts
// forwardWithheld), on fake replicas: what it takes for the set to be shown,
// and what keeps it withheld.
import type { Operation } from "@binring/core";
import { describe, expect, it } from "vitest";
import { forwardWithheld } from "../src/write-fan-out.js";
import { FakeNetwork, FakeTransport, PEER_CALL_TIMEOUT_MS } from "./support/fake-replicas.js";
import { VirtualTime } from "./support/virtual-time.js";

const [HERE, MIDDLE, LAST] = ["10.0.0.1:7000", "10.0.0.2:7000", "10.0.0.3:7000"];
const STAMP = { clock: 5n, writer: "0123456789abcdef", seq: 1 };
const SET = { bin: "b", key: "k", value: "v", stamp: STAMP, claim: undefined, epoch: 0n };

function setup() {
  const time = new VirtualTime();
  const network = new FakeNetwork([HERE!, MIDDLE!, LAST!], time);
  const peers = new FakeTransport(network, PEER_CALL_TIMEOUT_MS, HERE);
  const notify = (to: string, operation: Operation) => {
    network.record(to, operation, HERE!);
    network.replica(to).run(operation);
  };
  const forward = () => forwardWithheld({ peers, time, notify }, SET, [MIDDLE!, LAST!], PEER_CALL_TIMEOUT_MS);
  return { network, peers, forward, middle: network.replica(MIDDLE!), last: network.replica(LAST!) };
}

describe("a withheld set forwarded by the backend withholding it", () => {
  it("reaches every later replica at once; the middle one withholds it for the last and is released", async () => {
    const { peers, forward, middle, last } = setup();
    expect(await forward()).toEqual({ lacking: [], gone: [], superseded: false });
    expect(peers.callsTo(MIDDLE!, "set").map((call) => call.later)).toEqual([[LAST]]);
    expect(peers.callsTo(LAST!, "set").map((call) => call.later)).toEqual([[]]);
    expect(middle.strings.get("k") === "v" && last.strings.get("k") === "v").toBe(true);
    expect(middle.withheld.size).toBe(0);
  });

  it("stays withheld while a later replica does not answer, and releases none of the others", async () => {
    const { forward, middle, last } = setup();
    last.pausedUntil = Number.POSITIVE_INFINITY;
    expect(await forward()).toEqual({ lacking: [LAST], gone: [], superseded: false });
    expect(middle.withheld.size).toBe(1);
  });

  it("counts a later replica gone when nothing listens on its port, and a fresh connection is refused too", async () => {
    const { peers, forward, middle, last } = setup();
    last.gone = true;
    expect(await forward()).toEqual({ lacking: [], gone: [LAST], superseded: false });
    expect(middle.withheld.size).toBe(0);
    expect(peers.callsTo(LAST!, "release")).toEqual([]);
  });

  it("counts a later replica gone when its store failed", async () => {
    const { forward, last } = setup();
    last.storeUnavailable = true;
    expect(await forward()).toEqual({ lacking: [], gone: [LAST], superseded: false });
  });

  it("does not count gone a replica whose refused connection a fresh connection does not confirm", async () => {
    const { network, forward, middle } = setup();
    middle.repeatsOldRefusalUntil = network.time.now() + 60_000;
    expect(await forward()).toEqual({ lacking: [MIDDLE], gone: [], superseded: false });
  });
});
