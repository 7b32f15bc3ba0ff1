// Readiness leases across a pause, in process on a fake clock: a backend paused
// past its lease is declared dead only after the lease lapsed, and the
// renewals queued while it was paused cannot make it ready again.
import { afterEach, describe, expect, it } from "vitest";
import { KeeperWorld } from "./support/keeper-world.js";

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("readiness leases", () => {
  it("a paused backend is declared dead only after its lease lapsed, and stale renewals do not revive it", async () => {
    world = new KeeperWorld({ backends: 4, keepers: 2 });
    world.startAll();
    const w = world;
    await w.until(() => w.allReady(0) && w.allReady(1), 10_000, "a fresh cluster is ready");
    const [paused] = w.addresses;
    const backend = w.backend(paused!);
    backend.fault = "hung";
    const pausedAt = w.clock.now();
    const leaseMs = w.keeper(0).timing.leaseMs;
    await w.until(() => w.stateOf(paused!) === "dead", 15_000, "the paused backend is declared dead");
    // Its lease ran from the last renewal it took, before the pause.
    expect(w.clock.now() - pausedAt).toBeGreaterThan(leaseMs);
    const renewalsQueued = backend.heartbeats.length;

    // It resumes: the renewals sent while it was paused arrive now, late.
    backend.resume();
    await w.clock.advance(0);
    expect(backend.heartbeats.length).toBeGreaterThan(renewalsQueued);
    expect(
      backend.heartbeats.slice(renewalsQueued).some((beat) => beat.readiness === "READINESS_READY"),
    ).toBe(true);
    expect(backend.node.ready).toBe(false);

    // It is emptied and filled, and only then ready again.
    await w.until(() => w.stateOf(paused!) === "ready" && backend.node.ready, 20_000, "it is filled again");
  });
});
