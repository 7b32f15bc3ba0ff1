// The read path on fake replicas (read-path.ts): which failures it falls
// through, which it waits out, and when it gives up.
import { TimeoutError } from "@binring/core";
import { afterEach, describe, expect, it } from "vitest";
import { binOnFakes, CALL_TIMEOUT_MS } from "./support/bin-on-fakes.js";
import { BACKEND_CALL_TIMEOUT_MS } from "./support/fake-replicas.js";

let fakes: ReturnType<typeof binOnFakes>;
afterEach(() => fakes.close());

/** Each replica holds a different value, so a read's answer names the replica it came from. */
function valuesByReplica() {
  fakes = binOnFakes();
  const { primary, backup1, backup2 } = fakes;
  primary.strings.set("k", "from primary");
  backup1.strings.set("k", "from backup 1");
  backup2.strings.set("k", "from backup 2");
  return fakes;
}

describe("a read falls through to the next replica", () => {
  it("at once past one that is gone: its connection is refused, and a fresh connection too", async () => {
    const { bin, primary, reachability, time } = valuesByReplica();
    primary.gone = true;
    expect(await bin.get("k")).toBe("from backup 1");
    expect(time.now()).toBe(0);
    expect(reachability.isDown(primary.address)).toBe(true);
  });

  it("at once past one whose refused connection a fresh one does not confirm, which stays in placement", async () => {
    const { bin, primary, reachability, time } = valuesByReplica();
    primary.repeatsOldRefusalUntil = 1000;
    expect(await bin.get("k")).toBe("from backup 1");
    expect(time.now()).toBe(0);
    expect(reachability.isDown(primary.address)).toBe(false);
  });

  it("at once past one whose store failed", async () => {
    const { bin, primary, time } = valuesByReplica();
    primary.storeUnavailable = true;
    expect(await bin.get("k")).toBe("from backup 1");
    expect(time.now()).toBe(0);
  });

  it("past one that answers not ready, which stays in placement for writes", async () => {
    const { bin, primary, backup1, reachability } = valuesByReplica();
    primary.ready = false;
    backup1.ready = false;
    expect(await bin.get("k")).toBe("from backup 2");
    expect(reachability.isDown(primary.address)).toBe(false);
  });
});

describe("a read does not fall through a replica that is merely slow or paused", () => {
  it("waits for a paused primary across several call timeouts, and reads it when it answers", async () => {
    const { bin, primary, backup1, backup2, transport, time } = valuesByReplica();
    primary.pausedUntil = 2.5 * BACKEND_CALL_TIMEOUT_MS;
    expect(await bin.get("k")).toBe("from primary");
    expect(time.now()).toBeGreaterThanOrEqual(primary.pausedUntil);
    expect(transport.callsTo(primary.address, "get").length).toBeGreaterThan(1);
    expect(transport.callsTo(backup1.address)).toEqual([]);
    expect(transport.callsTo(backup2.address)).toEqual([]);
  });

  it("reads the next replica only once the keepers declare the paused one dead", async () => {
    const { bin, primary, backup1, transport, view, time } = valuesByReplica();
    primary.pausedUntil = Number.POSITIVE_INFINITY;
    const declaredDeadAt = 3000;
    view.publish({ epoch: 0n, dead: [primary.address] }, declaredDeadAt);
    expect(await bin.get("k")).toBe("from backup 1");
    const [firstBackupRead] = transport.callsTo(backup1.address, "get");
    expect(firstBackupRead?.at).toBeGreaterThanOrEqual(declaredDeadAt);
    expect(time.now()).toBeLessThan(CALL_TIMEOUT_MS);
  });
});

describe("a read does not fall through to a replica that may lack acknowledged entries", () => {
  const FIVE_BACKENDS = ["10.0.0.1:7000", "10.0.0.2:7000", "10.0.0.3:7000", "10.0.0.4:7000", "10.0.0.5:7000"];

  /** Five backends; the two backups of bin "b" answer not ready; every other backend holds another value. */
  function backupsNotReady() {
    fakes = binOnFakes(FIVE_BACKENDS);
    const { primary, backup1, backup2, transport } = fakes;
    const replicas = [primary, backup1, backup2].map((replica) => replica.address);
    const others = FIVE_BACKENDS.filter((address) => !replicas.includes(address));
    backup1.strings.set("k", "from backup 1");
    backup2.strings.set("k", "from backup 2");
    for (const address of others) transport.replica(address).strings.set("k", "from a stand-in");
    backup1.ready = false;
    backup2.ready = false;
    return { ...fakes, others };
  }

  it("waits for a holder to serve reads again while the dead primary's repair runs, never reading its stand-in", async () => {
    const { bin, primary, backup1, view, transport, time, others } = backupsNotReady();
    primary.gone = true;
    view.publish({ epoch: 1n, repairing: [primary.address] });
    await view.refresh();
    void time.sleep(3000).then(() => {
      backup1.ready = true;
    });
    expect(await bin.get("k")).toBe("from backup 1");
    expect(time.now()).toBeGreaterThanOrEqual(3000);
    for (const address of others) expect(transport.callsTo(address)).toEqual([]);
  });

  it("reads the stand-in once the view says the repair is done", async () => {
    const { bin, primary, view, time } = backupsNotReady();
    primary.gone = true;
    view.publish({ epoch: 1n, repairing: [primary.address] });
    await view.refresh();
    const repairedAt = 2000;
    view.publish({ epoch: 2n, dead: [primary.address] }, repairedAt);
    expect(await bin.get("k")).toBe("from a stand-in");
    expect(time.now()).toBeGreaterThanOrEqual(repairedAt);
  });

  it("reads the stand-in at once past not-ready holders when the dead primary was repaired", async () => {
    const { bin, primary, view, time } = backupsNotReady();
    primary.gone = true;
    view.publish({ epoch: 1n, dead: [primary.address] });
    await view.refresh();
    expect(await bin.get("k")).toBe("from a stand-in");
    expect(time.now()).toBe(0);
  });

  it("never reads a backend standing in for one only this client found unreachable", async () => {
    const { bin, primary, backup1, transport, time, others } = backupsNotReady();
    primary.gone = true;
    void time.sleep(2500).then(() => {
      backup1.ready = true;
    });
    expect(await bin.get("k")).toBe("from backup 1");
    expect(time.now()).toBeGreaterThanOrEqual(2500);
    for (const address of others) expect(transport.callsTo(address)).toEqual([]);
  });
});

describe("a read's deadline", () => {
  it("ends a read of a replica that never answers with TimeoutError naming the replica, at the deadline", async () => {
    const { bin, primary, backup1, transport, time } = valuesByReplica();
    primary.pausedUntil = Number.POSITIVE_INFINITY;
    const read = bin.get("k");
    await expect(read).rejects.toBeInstanceOf(TimeoutError);
    await expect(read).rejects.toThrow(
      `read in bin "b" did not complete within ${CALL_TIMEOUT_MS} ms: backend ${primary.address} did not answer`,
    );
    // It gives up at the first check after the deadline: at most one more call timeout and pause past it.
    expect(time.now()).toBeGreaterThanOrEqual(CALL_TIMEOUT_MS);
    expect(time.now()).toBeLessThanOrEqual(CALL_TIMEOUT_MS + BACKEND_CALL_TIMEOUT_MS + 200);
    expect(transport.callsTo(backup1.address)).toEqual([]);
  });
});

describe("a read on a stale view", () => {
  it("refreshes the view and retries the same replica with the new epoch", async () => {
    const { bin, primary, backup1, backup2, transport, view } = valuesByReplica();
    view.epoch = 3n;
    for (const replica of [primary, backup1, backup2]) replica.epoch = 4n;
    view.publish({ epoch: 4n });
    expect(await bin.get("k")).toBe("from primary");
    expect(transport.callsTo(primary.address, "get").map((call) => call.epoch)).toEqual([3n, 4n]);
    expect(transport.callsTo(backup1.address)).toEqual([]);
    expect(view.refreshes).toBeGreaterThan(0);
  });
});

describe("a read without keepers", () => {
  it("still prefers a ready replica", async () => {
    const { bin, primary, view } = valuesByReplica();
    view.hasKeepers = false;
    primary.ready = false;
    expect(await bin.get("k")).toBe("from backup 1");
  });

  it("reads the first replica at once when every one answers not ready, since nothing will make them ready", async () => {
    const { bin, primary, backup1, backup2, time, view } = valuesByReplica();
    view.hasKeepers = false;
    for (const replica of [primary, backup1, backup2]) replica.ready = false;
    expect(await bin.get("k")).toBe("from primary");
    expect(time.now()).toBe(0);
  });

  it("with keepers, waits instead for a replica they make ready", async () => {
    const { bin, primary, backup1, backup2 } = valuesByReplica();
    for (const replica of [primary, backup1, backup2]) replica.ready = false;
    await expect(bin.get("k")).rejects.toBeInstanceOf(TimeoutError);
  });
});
