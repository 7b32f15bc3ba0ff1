// A call refused because a backend knows a newer view epoch than the client
// goes again as soon as the client has fetched that epoch, with no pause: the
// refusal says nothing of load, and keepers mint several epochs while they
// converge on one membership change, so a pause on each (10, 20, 40, 80 ms)
// stalled every call of a busy client at every change. A refusal the keepers
// cannot explain yet still pauses between rounds.
import { afterEach, expect, it } from "vitest";
import { binOnFakes } from "./support/bin-on-fakes.js";

let fakes: ReturnType<typeof binOnFakes>;
afterEach(() => fakes.close());

/** Every replica fenced at epoch 5, the client on 4; `publishedAt`: when the keepers serve epoch 5. */
function fencedAhead(publishedAt: number) {
  fakes = binOnFakes();
  const { view, primary, backup1, backup2 } = fakes;
  view.epoch = 4n;
  for (const replica of [primary, backup1, backup2]) replica.epoch = 5n;
  view.publish({ epoch: 5n }, publishedAt);
  return fakes;
}

it("writes again at once once the view has the epoch a replica refused it for", async () => {
  const { bin, view, time, primary, backup1, backup2 } = fencedAhead(0);
  await bin.set("k", "v");
  expect(time.now()).toBe(0);
  expect(view.epoch).toBe(5n);
  for (const replica of [primary, backup1, backup2]) expect(replica.strings.get("k")).toBe("v");
});

it("reads again at once once the view has the epoch a replica refused it for", async () => {
  const { bin, time, primary } = fencedAhead(0);
  primary.strings.set("k", "v");
  expect(await bin.get("k")).toBe("v");
  expect(time.now()).toBe(0);
});

it("pauses between rounds while no keeper serves the epoch the replicas were fenced at", async () => {
  const { bin, view, time } = fencedAhead(1000);
  await bin.set("k", "v");
  expect(view.epoch).toBe(5n);
  expect(time.now()).toBeGreaterThanOrEqual(1000);
  // Paused, not spinning: a handful of rounds over that second, not hundreds.
  expect(view.refreshes).toBeLessThan(40);
});
