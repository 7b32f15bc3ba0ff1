// A client cut off by the network, on fake replicas and a fake view: from a
// bin's primary but not its backups (every call to the primary hangs), or from
// the keepers (no newer view can be had). Such a client acknowledges no write
// that is not on every live replica and reads nothing older than what it was
// shown; where it cannot proceed it fails within its deadline with an error
// naming why (issue 24, "Clients across a partition").
import { TimeoutError } from "@binring/core";
import { afterEach, describe, expect, it } from "vitest";
import { binOnFakes, CALL_TIMEOUT_MS } from "./support/bin-on-fakes.js";
import { BACKEND_CALL_TIMEOUT_MS } from "./support/fake-replicas.js";

let fakes: ReturnType<typeof binOnFakes>;
afterEach(() => fakes.close());

describe("a client cut off from a bin's primary but not from its backups", () => {
  it("acknowledges no write: it fails at its deadline naming the primary, and no replica took the entry", async () => {
    fakes = binOnFakes();
    const { bin, primary, backup1, backup2, time } = fakes;
    primary.pausedUntil = Number.POSITIVE_INFINITY;
    const write = bin.set("k", "v");
    await expect(write).rejects.toBeInstanceOf(TimeoutError);
    await expect(write).rejects.toThrow(`backend ${primary.address} did not answer`);
    expect(time.now()).toBeLessThanOrEqual(CALL_TIMEOUT_MS + BACKEND_CALL_TIMEOUT_MS + 200);
    for (const replica of [primary, backup1, backup2]) expect(replica.strings.has("k")).toBe(false);
  });

  it("reads no backup, which may be ahead of the primary (a later read there would go back in time): it fails at its deadline naming the primary", async () => {
    fakes = binOnFakes();
    const { bin, primary, backup1, backup2, transport } = fakes;
    await bin.set("k", "shown");
    primary.pausedUntil = Number.POSITIVE_INFINITY;
    const read = bin.get("k");
    await expect(read).rejects.toBeInstanceOf(TimeoutError);
    await expect(read).rejects.toThrow(`backend ${primary.address} did not answer`);
    for (const backup of [backup1, backup2]) expect(transport.callsTo(backup.address, "get")).toEqual([]);
  });
});

describe("a client cut off from the keepers", () => {
  it("on a view the replicas fenced, neither writes nor reads: both fail at their deadline naming the stale epoch", async () => {
    fakes = binOnFakes();
    const { bin, primary, backup1, backup2, view, time } = fakes;
    await bin.set("k", "before");
    view.epoch = 3n;
    for (const replica of [primary, backup1, backup2]) replica.epoch = 4n;
    // No newer view is published: a refresh finds nothing, as when no keeper answers.
    const write = bin.set("k", "after");
    await expect(write).rejects.toBeInstanceOf(TimeoutError);
    await expect(write).rejects.toThrow(
      /did not complete within \d+ ms: stale view: call made with view epoch 3 but the backend is at epoch 4/,
    );
    expect(time.now()).toBeLessThanOrEqual(CALL_TIMEOUT_MS + BACKEND_CALL_TIMEOUT_MS + 200);
    for (const replica of [primary, backup1, backup2]) expect(replica.strings.get("k")).toBe("before");
    const read = bin.get("k");
    await expect(read).rejects.toBeInstanceOf(TimeoutError);
    await expect(read).rejects.toThrow(
      /did not complete within \d+ ms: stale view: call made with view epoch 3 but the backend is at epoch 4/,
    );
    expect(view.refreshes).toBeGreaterThan(0);
  });

  it("on a view nothing fenced, goes on reading and writing the replicas it has", async () => {
    fakes = binOnFakes();
    const { bin, primary, backup1, backup2 } = fakes;
    await bin.set("k", "v");
    expect(await bin.get("k")).toBe("v");
    for (const replica of [primary, backup1, backup2]) expect(replica.strings.get("k")).toBe("v");
  });
});
