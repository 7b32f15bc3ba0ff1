// The write path on fake replicas: the client's half (write-path.ts) sends
// one message to a coordinator, whose half (write-coordinator.ts) runs on that
// fake replica and reaches the others over the same fake network. Which
// replicas a write may skip, which it waits for, restamping, retries of
// unknown outcome, and when it gives up.
import { ListFullError, MAX_CLOCK_JUMP, OutcomeUnknownError, TimeoutError } from "@binring/core";
import { afterEach, describe, expect, it } from "vitest";
import { binOnFakes, CALL_TIMEOUT_MS } from "./support/bin-on-fakes.js";
import { BACKEND_CALL_TIMEOUT_MS, type FakeReplica, PEER_CALL_TIMEOUT_MS } from "./support/fake-replicas.js";

let fakes: ReturnType<typeof binOnFakes>;
afterEach(() => fakes.close());

function setup() {
  fakes = binOnFakes();
  return fakes;
}

const WRITES = ["set", "listAppend", "listRemove"];

/** The replicas, in the order entries reached them (forwarded by a coordinator, or applied by it to itself). */
function writeOrderSeen(): string[] {
  return fakes.transport.calls.filter((call) => WRITES.includes(call.operation)).map((call) => call.address);
}

/** What the client itself sent, and to whom. */
function clientCalls(): { address: string; operation: string }[] {
  return fakes.transport.calls
    .filter((call) => call.from === "client")
    .map(({ address, operation }) => ({ address, operation }));
}

function holds(replica: FakeReplica, value: string): boolean {
  return replica.strings.get("k") === value;
}

describe("a write", () => {
  it("is one message to the first ready replica, which stamps a set and applies it to every replica at once", async () => {
    const { bin, primary, backup1, backup2, transport } = setup();
    primary.clock = 41n;
    await bin.set("k", "v");
    expect(clientCalls()).toEqual([{ address: primary.address, operation: "write" }]);
    const sets = transport.calls.filter((call) => call.operation === "set");
    expect(sets.map(({ address, at, later }) => ({ address, at, later }))).toEqual([
      { address: primary.address, at: 0, later: [backup1.address, backup2.address] },
      { address: backup1.address, at: 0, later: [backup2.address] },
      { address: backup2.address, at: 0, later: [] },
    ]);
    // Stamped with the coordinator's clock 41: each replica's clock is now past it.
    expect([primary.clock, backup1.clock, backup2.clock]).toEqual([42n, 42n, 42n]);
  });

  it("is answered once every replica took the set, which is then released where it was withheld", async () => {
    const { bin, primary, backup1, backup2, transport } = setup();
    await bin.set("k", "v");
    // The last backup withholds nothing; the first is told by the coordinator, which releases its own.
    const releases = transport.calls.filter((call) => call.operation === "release");
    expect(releases.map(({ address, from }) => ({ address, from }))).toEqual([
      { address: primary.address, from: primary.address },
      { address: backup1.address, from: primary.address },
    ]);
    for (const replica of [primary, backup1, backup2]) expect(replica.withheld.size).toBe(0);
  });

  it("applies a list entry last backup first", async () => {
    const { bin, primary, backup1, backup2, transport } = setup();
    await bin.listAppend("k", "v");
    expect(writeOrderSeen()).toEqual([backup2.address, backup1.address, primary.address]);
    expect(transport.calls.filter((call) => call.operation === "release")).toEqual([]);
  });

  it("is coordinated by the next replica when the primary is not ready, and still applied to the primary", async () => {
    const { bin, primary, backup1, backup2, transport } = setup();
    primary.ready = false;
    await bin.set("k", "v");
    expect(clientCalls()).toEqual([
      { address: primary.address, operation: "write" },
      { address: backup1.address, operation: "write" },
    ]);
    expect(holds(primary, "v")).toBe(true);
    // The primary withholds it for both backups, the coordinator included, and is told once both have it.
    expect(transport.callsTo(primary.address, "set")[0]?.later).toEqual([backup1.address, backup2.address]);
    expect(transport.callsTo(primary.address, "release")).toHaveLength(1);
    expect(primary.withheld.size).toBe(0);
  });
});

describe("a write skips a replica only when it is gone", () => {
  it("skips one whose connection is refused, and a fresh connection too", async () => {
    const { bin, primary, backup1, backup2, reachability } = setup();
    backup2.gone = true;
    await bin.set("k", "v");
    expect(reachability.isDown(backup2.address)).toBe(true);
    expect(holds(backup1, "v") && holds(primary, "v")).toBe(true);
  });

  it("skips one whose store failed", async () => {
    const { bin, primary, backup1, backup2 } = setup();
    backup2.storeUnavailable = true;
    await bin.set("k", "v");
    expect(holds(backup1, "v") && holds(primary, "v")).toBe(true);
  });

  it("does not skip one whose refused connection a fresh connection does not confirm", async () => {
    const { bin, backup2, reachability, time } = setup();
    backup2.repeatsOldRefusalUntil = 1000;
    await bin.set("k", "v");
    expect(holds(backup2, "v")).toBe(true);
    expect(reachability.isDown(backup2.address)).toBe(false);
    expect(time.now()).toBeGreaterThanOrEqual(1000);
  });

  it("waits for a paused replica across several call timeouts; the others withhold the set until it has it", async () => {
    const { bin, primary, backup1, backup2, transport, time } = setup();
    backup1.pausedUntil = 2.5 * BACKEND_CALL_TIMEOUT_MS;
    const write = bin.set("k", "v");
    await time.sleep(BACKEND_CALL_TIMEOUT_MS);
    // The primary took it at once and withholds it from its readers; the first backup lacks it.
    expect(holds(primary, "v") && holds(backup2, "v")).toBe(true);
    expect(holds(backup1, "v")).toBe(false);
    expect(primary.withheld.size).toBe(1);
    await write;
    expect(holds(backup1, "v")).toBe(true);
    const [release] = transport.callsTo(primary.address, "release");
    expect(release?.at).toBeGreaterThanOrEqual(backup1.pausedUntil);
    expect(primary.withheld.size + backup1.withheld.size).toBe(0);
  });

  it("waits for a paused replica before a list entry goes on to the primary", async () => {
    const { bin, primary, backup1, transport } = setup();
    backup1.pausedUntil = 2.5 * BACKEND_CALL_TIMEOUT_MS;
    await bin.listAppend("k", "v");
    expect(backup1.lists.get("k")).toEqual(["v"]);
    const [primaryWrite] = transport.callsTo(primary.address, "listAppend");
    expect(primaryWrite?.at).toBeGreaterThanOrEqual(backup1.pausedUntil);
  });
});

describe("a coordinator given a long attempt", () => {
  it("waits for a replica slower than a forward's usual wait, and sends it the entry once", async () => {
    fakes = binOnFakes(undefined, undefined, 10_000);
    const { bin, backup1, transport } = fakes;
    // Busy for 3 s (applying megabytes, say): past the 1 s floor, well inside the client's 10 s.
    backup1.pausedUntil = 3 * PEER_CALL_TIMEOUT_MS;
    await bin.set("k", "v");
    expect(holds(backup1, "v")).toBe(true);
    expect(transport.callsTo(backup1.address, "set")).toHaveLength(1);
  });
});

describe("an append a remove of its value got ahead of", () => {
  it("is stamped again above the remove and applied anew, so it shows on every replica", async () => {
    const { bin, primary, backup1, backup2, transport } = setup();
    primary.clock = 10n;
    // A remove of "v" stamped at clock 50 reached the last backup (the first replica a write visits) only.
    backup2.tookRemove("k", "v", 50n);
    await bin.listAppend("k", "v");
    expect(transport.callsTo(backup2.address, "listAppend")).toHaveLength(2);
    // The abandoned first attempt never went past the replica that answered superseded.
    expect(transport.callsTo(primary.address, "listAppend")).toHaveLength(1);
    for (const replica of [primary, backup1, backup2]) expect(replica.lists.get("k")).toEqual(["v"]);
    expect(primary.clock).toBeGreaterThan(51n);
  });
});

describe("a write reaching a replica whose clock is far behind its stamp", () => {
  it("raises that clock one window at a time and applies the write there and on the primary", async () => {
    const { bin, primary, backup1, backup2, transport } = setup();
    const cluster = 5n * MAX_CLOCK_JUMP + 7n;
    primary.clock = cluster;
    backup2.clock = cluster;
    // backup1 came back on an empty store; keeper clock sync has not reached it.
    backup1.clock = 3n;
    await bin.listAppend("k", "v");
    for (const replica of [primary, backup1, backup2]) expect(replica.lists.get("k")).toEqual(["v"]);
    expect(backup1.clock).toBeGreaterThan(cluster);
    // One read of its clock, then four raises of one window each.
    expect(transport.callsTo(backup1.address, "clock")).toHaveLength(6);
  });
});

describe("a write refused for good", () => {
  it("fails with the replica's error when no replica took it yet", async () => {
    const { bin, backup2 } = setup();
    backup2.listsFull = true;
    const append = bin.listAppend("k", "v");
    await expect(append).rejects.toBeInstanceOf(ListFullError);
  });

  it("is of unknown outcome once another replica took it", async () => {
    const { bin, primary, backup1, backup2, transport } = setup();
    backup1.listsFull = true;
    const append = bin.listAppend("k", "v");
    await expect(append).rejects.toBeInstanceOf(OutcomeUnknownError);
    await expect(append).rejects.toThrow(`taken by 1 replica(s), then refused by ${backup1.address}`);
    expect(backup2.lists.get("k")).toEqual(["v"]);
    expect(transport.callsTo(primary.address, "listAppend")).toEqual([]);
  });
});

describe("a write's deadline", () => {
  it("ends a write a replica never answers with TimeoutError naming it; the replicas that took a set withhold it", async () => {
    const { bin, primary, backup1, backup2, transport, time } = setup();
    backup2.pausedUntil = Number.POSITIVE_INFINITY;
    const write = bin.set("k", "v");
    await expect(write).rejects.toBeInstanceOf(TimeoutError);
    await expect(write).rejects.toThrow(
      `write in bin "b" did not complete within ${CALL_TIMEOUT_MS} ms: backend ${backup2.address} did not answer`,
    );
    expect(time.now()).toBeGreaterThanOrEqual(CALL_TIMEOUT_MS);
    expect(time.now()).toBeLessThanOrEqual(CALL_TIMEOUT_MS + PEER_CALL_TIMEOUT_MS + 200);
    expect(holds(primary, "v") && holds(backup1, "v")).toBe(true);
    expect([primary.withheld.size, backup1.withheld.size]).toEqual([1, 1]);
    expect(transport.calls.filter((call) => call.operation === "release")).toEqual([]);
  });

  it("ends a list entry a replica never answers without reaching the primary", async () => {
    const { bin, primary, backup2, transport } = setup();
    backup2.pausedUntil = Number.POSITIVE_INFINITY;
    await expect(bin.listAppend("k", "v")).rejects.toBeInstanceOf(TimeoutError);
    expect(transport.callsTo(primary.address, "listAppend")).toEqual([]);
  });
});

describe("a write on a stale view", () => {
  it("refreshes the view and sends the write again with the new epoch and the stamp it had", async () => {
    const { bin, primary, backup1, backup2, transport, view } = setup();
    view.epoch = 3n;
    backup1.epoch = 4n;
    view.publish({ epoch: 4n });
    await bin.set("k", "v");
    // The first attempt reached every replica at once; the first backup refused it as stale.
    expect(transport.callsTo(backup1.address, "set").map((call) => call.epoch)).toEqual([3n, 4n]);
    expect(transport.callsTo(primary.address, "set").map((call) => call.epoch)).toEqual([3n, 4n]);
    expect(holds(backup1, "v")).toBe(true);
    for (const replica of [primary, backup1, backup2]) expect(replica.withheld.size).toBe(0);
    // The refusal named the newer epoch: the view is fetched however recently it was.
    expect(view.reportedEpochs).toContain(4n);
    // One stamp for the write on every replica: the second attempt kept the first one's.
    const stamps = [primary, backup1, backup2].map((replica) => [...replica.records.values()]);
    expect(new Set(stamps.flat().map((stamp) => stamp.clock)).size).toBe(1);
  });
});

describe("a write whose coordinator fails part way", () => {
  it("keeps the stamp the coordinator reported when a replica it forwarded to dies mid-write", async () => {
    const { bin, primary, backup1, backup2, reachability } = setup();
    backup1.gone = true;
    await bin.listAppend("k", "v");
    expect(reachability.isDown(backup1.address)).toBe(true);
    expect(primary.lists.get("k")).toEqual(["v"]);
    expect(backup2.lists.get("k")).toEqual(["v"]);
    expect([...primary.records.values()]).toEqual([...backup2.records.values()]);
  });

  it("claims the write on a retry after its coordinator died mid-write, and keeps the stamp the last backup holds", async () => {
    const { bin, primary, backup1, backup2, transport } = setup();
    primary.clock = 100n;
    backup1.clock = 7n;
    // The primary forwards to the last backup, then its process dies: the client cannot know how far it got.
    primary.diesAfterForwards = 1;
    await bin.listAppend("k", "v");
    // Without the claim, backup1 (the next coordinator) would stamp the append anew below 100, and
    // backup2 would hold it twice.
    expect(backup2.lists.get("k")).toEqual(["v"]);
    expect(backup1.lists.get("k")).toEqual(["v"]);
    expect(transport.callsTo(backup2.address, "claim")).toHaveLength(1);
    expect([...backup1.records.values()][0]?.clock).toBe(100n);
  });

  it("finds the stamp on every replica when only the coordinator's answer was lost, and applies nothing twice", async () => {
    const { bin, primary, backup1, backup2, time } = setup();
    primary.losesWriteReplies = true;
    const append = bin.listAppend("k", "v");
    // The next attempt goes to the same coordinator (it still serves reads), which now answers.
    await time.sleep(BACKEND_CALL_TIMEOUT_MS + 1);
    primary.losesWriteReplies = false;
    await append;
    for (const replica of [primary, backup1, backup2]) expect(replica.lists.get("k")).toEqual(["v"]);
  });
});

describe("a set whose replicas fail part way", () => {
  it("keeps the stamp when a replica dies mid-forward, and releases the set on the replicas left", async () => {
    const { bin, primary, backup1, backup2, reachability, transport } = setup();
    backup1.gone = true;
    await bin.set("k", "v");
    expect(reachability.isDown(backup1.address)).toBe(true);
    expect(holds(primary, "v") && holds(backup2, "v")).toBe(true);
    // The first attempt withheld it for the first backup; the second, without it, released it.
    expect(transport.callsTo(primary.address, "set").map((call) => call.later)).toEqual([
      [backup1.address, backup2.address],
      [backup2.address],
    ]);
    expect(primary.withheld.size).toBe(0);
    expect([...primary.records.values()]).toEqual([...backup2.records.values()]);
  });

  it("is claimed and released by the next coordinator after its coordinator died mid-forward", async () => {
    const { bin, primary, backup1, backup2, transport } = setup();
    primary.clock = 100n;
    backup1.clock = 7n;
    primary.diesAfterForwards = 1;
    await bin.set("k", "v");
    expect(transport.callsTo(backup2.address, "claim")).toHaveLength(1);
    expect(holds(backup1, "v") && holds(backup2, "v")).toBe(true);
    // The stamp the dead coordinator gave it, found by the claim: one stamp for the write.
    expect([...backup1.records.values()].map((stamp) => stamp.clock)).toEqual([100n]);
    expect(backup1.withheld.size).toBe(0);
  });
});

describe("a claim a replica fails", () => {
  // The retry claims the write everywhere, and the last backup fails the claim. Taken for the
  // coordinator's failure, a store failure there (a backend restarted, its Redis not yet verified)
  // would make the client skip the primary (alive, ready: where reads go) and acknowledge the write
  // without it; a refused connection there would be checked against the primary, which answers,
  // and the write would stall until the view showed the backup dead.
  it.each([
    ["whose store failed", (replica: FakeReplica) => (replica.storeUnavailable = true)],
    ["that refuses connections", (replica: FakeReplica) => (replica.gone = true)],
  ])(
    "is that replica's failure, not its coordinator's: one %s is skipped, the coordinator is not",
    async (_, fail) => {
      const { bin, primary, backup1, backup2, reachability, time } = setup();
      primary.losesWriteReplies = true;
      const write = bin.set("k", "v");
      await time.sleep(BACKEND_CALL_TIMEOUT_MS + 1);
      primary.losesWriteReplies = false;
      fail(backup2);
      await write;
      expect(reachability.isDown(backup2.address)).toBe(true);
      expect(reachability.isDown(primary.address)).toBe(false);
      expect(holds(primary, "v") && holds(backup1, "v")).toBe(true);
    },
  );
});

describe("an append retried under another coordinator, which a remove counted in the earlier attempt", () => {
  it("is not stamped again where a replica the earlier attempt missed answers superseded", async () => {
    // A soak found this: the primary coordinated an append onto the stand-in and the first backup
    // (the second backup was dead in the view), then died; a remove of the value counted it on the
    // first backup, and reached the second backup, back in the view, before the append did. The
    // retry, coordinated by the first backup, met "superseded" there and stamped the append again
    // above the remove: it showed for good, though the remove had reported it removed.
    fakes = binOnFakes(["10.0.0.1:7000", "10.0.0.2:7000", "10.0.0.3:7000", "10.0.0.4:7000"]);
    const { bin, primary, backup1, backup2, transport, view } = fakes;
    const standIn = ["10.0.0.1:7000", "10.0.0.2:7000", "10.0.0.3:7000", "10.0.0.4:7000"]
      .map((address) => transport.replica(address))
      .find((replica) => ![primary, backup1, backup2].includes(replica))!;
    view.publish({ epoch: 1n, dead: [backup2.address] });
    await view.refresh();
    primary.diesAfterForwards = 2;
    primary.onDeath = () => {
      // The remove, stamped far above the append, counts it on the first backup, deletes it on the
      // stand-in and reaches the second backup before it.
      for (const replica of [backup1, standIn, backup2]) replica.tookRemove("k", "v", 1000n);
      view.publish({ epoch: 2n }, fakes.time.now());
    };
    await bin.listAppend("k", "v");
    for (const replica of [backup1, backup2, standIn]) expect(replica.lists.get("k") ?? []).toEqual([]);
    expect(transport.callsTo(backup2.address, "listAppend")).toHaveLength(1);
  });
});
