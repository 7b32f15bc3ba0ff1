// A backend reports which keepers it heard lately and how long ago, by its
// own clock: what lets a keeper cut off from another tell it from a dead one.
import { DEFAULT_LIMITS } from "@binring/core";
import { describe, expect, it } from "vitest";
import { BackendNode } from "../src/backend-node.js";
import { MAX_SIGHTED_KEEPERS, SIGHTING_TTL_MS } from "../src/keeper-sightings.js";
import { MemoryEngine } from "../src/memory-engine.js";

function backend() {
  const clock = { now: 0 };
  const node = new BackendNode({ engine: new MemoryEngine(), limits: DEFAULT_LIMITS, now: () => clock.now });
  return { node, clock };
}

const beat = (keeper?: string) => ({ epoch: 0n, clockFloor: 0n, leaseMs: 0, keeper });

describe("keeper sightings", () => {
  it("reports each keeper with the time since its last heartbeat, and forgets one silent past the TTL", async () => {
    const { node, clock } = backend();
    await node.heartbeat(beat("k1"));
    clock.now = 1000;
    await node.heartbeat(beat("k2"));
    clock.now = 1500;
    expect((await node.state()).keepers).toEqual([
      { keeper: "k1", ageMs: 1500 },
      { keeper: "k2", ageMs: 500 },
    ]);
    await node.heartbeat(beat("k1"));
    clock.now = 1000 + SIGHTING_TTL_MS + 1;
    expect((await node.state()).keepers).toEqual([{ keeper: "k1", ageMs: SIGHTING_TTL_MS - 499 }]);
  });

  it("a heartbeat without a keeper name is not a sighting", async () => {
    const { node } = backend();
    expect((await node.heartbeat(beat())).keepers).toEqual([]);
  });

  it(`keeps the ${MAX_SIGHTED_KEEPERS} most recently heard keepers`, async () => {
    const { node, clock } = backend();
    for (let i = 0; i <= MAX_SIGHTED_KEEPERS; i++) {
      clock.now = i;
      await node.heartbeat(beat(`k${i}`));
    }
    const keepers = (await node.state()).keepers.map((sighting) => sighting.keeper);
    expect(keepers).toHaveLength(MAX_SIGHTED_KEEPERS);
    expect(keepers).not.toContain("k0");
    expect(keepers).toContain(`k${MAX_SIGHTED_KEEPERS}`);
  });
});
