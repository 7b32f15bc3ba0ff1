// A client with keepers places nothing before a keeper has answered with the
// view: its cluster file may list backends that have left the ring, and a
// call fenced by no epoch (0) would be taken by them. So reads and writes wait
// for the first view, and fail at their deadline naming why.
import { afterEach, describe, expect, it } from "vitest";
import { binOnFakes, CALL_TIMEOUT_MS } from "./support/bin-on-fakes.js";

let fakes: ReturnType<typeof binOnFakes>;
afterEach(() => fakes.close());

describe("a client whose keepers have not answered yet", () => {
  it("calls no backend, and its write fails at the deadline naming the missing view", async () => {
    fakes = binOnFakes();
    fakes.view.hasView = false;
    await expect(fakes.bin.set("k", "v")).rejects.toThrow(/no keeper has answered with the cluster view yet/);
    await expect(fakes.bin.get("k")).rejects.toThrow(/no keeper has answered with the cluster view yet/);
    expect(fakes.transport.calls).toEqual([]);
    expect(fakes.time.now()).toBeGreaterThanOrEqual(CALL_TIMEOUT_MS);
  });

  it("writes once the first view arrives, to the replicas it shows", async () => {
    fakes = binOnFakes();
    fakes.view.hasView = false;
    fakes.view.publish({ epoch: 7n }, 3000);
    await fakes.bin.set("k", "v");
    expect(fakes.time.now()).toBeGreaterThanOrEqual(3000);
    expect(fakes.primary.strings.get("k")).toBe("v");
    expect(await fakes.bin.get("k")).toBe("v");
  });
});
