// A keeper's control calls are fenced by its ownership of the backend
// (backend/src/ownership.ts, HAZARDS.md 23), in process on a fake clock: a
// keeper whose link stalled loses its slice to another keeper, and when its
// held calls arrive at last they change nothing, though they name the
// backend's current incarnation.
import type { HeartbeatRequest } from "@binring/core";
import { afterEach, describe, expect, it } from "vitest";
import { KeeperWorld } from "./support/keeper-world.js";

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("a keeper that lost its slice behind a stalled link", () => {
  it("cannot make a backend ready when its grant arrives after another keeper took the backend over and declared it dead", async () => {
    world = new KeeperWorld({ backends: 6, keepers: 3 });
    world.startAll();
    const w = world;
    await w.until(() => [0, 1, 2].every((i) => w.allReady(i)), 10_000, "a fresh cluster is ready");
    const victim = [...w.keeper(1).slice][0]!;
    const backend = w.backend(victim);

    // A pause outlasts the backend's lease but not its life: keeper 1, its owner, grants it again
    // at once without a copy, and that grant is held on keeper 1's stalled link.
    w.stallWhen(
      1,
      (address, call, request) =>
        address === victim && call === "heartbeat" && (request as HeartbeatRequest).filled === true,
    );
    backend.fault = "hung";
    await w.until(() => !backend.node.ready, 5000, "the lease lapses in the pause");
    backend.resume();
    await w.until(() => w.stalled(1), 5000, "keeper 1 grants readiness again");
    const incarnation = backend.node.incarnation;

    // To the others keeper 1 is silent: one takes the backend over and claims it.
    const successor = () => [0, 2].find((i) => w.keeper(i).slice.has(victim));
    await w.until(
      () => {
        const i = successor();
        return (
          i !== undefined &&
          backend.heartbeats.some(
            (sent) => sent.keeper === w.keeperAddresses[i] && String(sent.ownerTerm ?? "0") !== "0",
          )
        );
      },
      15_000,
      "another keeper owns the backend and it took the claim",
    );
    // Paused, it is declared dead, and a write is acknowledged without it.
    backend.fault = "hung";
    await w.until(() => w.stateOf(victim, 0) === "dead", 15_000, "declared dead by its new owner");
    const bin = Array.from({ length: 100 }, (_, i) => `bin-${i}`).find((name) =>
      w.keeper(0).ring.replicasFor(name).includes(victim),
    )!;
    expect(await w.write(bin, "k", "after-death")).not.toContain(victim);

    // The held grant arrives as the backend resumes: same incarnation, so only ownership refuses it.
    w.deliver(1);
    backend.resume();
    await w.clock.advance(0);
    expect(backend.node.incarnation).toBe(incarnation);
    expect(await w.stored(victim, bin, "k")).toBeUndefined();
    expect(backend.node.ready).toBe(false);
  });
});
