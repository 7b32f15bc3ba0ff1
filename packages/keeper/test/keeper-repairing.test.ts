// A dead backend stays "repairing" in the published view until every one of
// its bins is re-copied onto its stand-ins: clients read none of its bins
// there before that (client-session.ts, Placement.readable). In process, on
// a fake clock, with the copy held back by sources that refuse to be scanned.
import { type Entry, UnavailableError } from "@binring/core";
import { afterEach, describe, expect, it } from "vitest";
import { KEEPER_LOG_BIN } from "../src/intent-log.js";
import { KeeperWorld } from "./support/keeper-world.js";

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("a dead backend's repair in the view", () => {
  it("is published with the death, stays while copies fail, and ends when the copies are done", async () => {
    world = new KeeperWorld({ backends: 6, keepers: 1 });
    world.startAll();
    const w = world;
    await w.until(() => w.allReady(), 10_000, "a fresh cluster is ready");
    for (let i = 0; i < 30; i++) await w.write(`bin-${i}`, "k", `v${i}`);

    let scansRefused = true;
    for (const backend of w.backends.values()) {
      backend.onCall = (call) => {
        if (call === "scan" && scansRefused) throw new UnavailableError(`${backend.address}: scan refused`);
      };
    }
    const [victim] = w.addresses;
    w.backend(victim!).fault = "down";
    const entry = () =>
      w
        .keeper(0)
        .view()
        .backends.find((backend) => backend.address === victim)!;

    await w.until(() => entry().state === "dead", 10_000, "the victim is declared dead");
    expect(entry().repairing).toBe(true);
    await w.clock.advance(5000);
    expect(entry()).toMatchObject({ state: "dead", repairing: true });

    scansRefused = false;
    await w.until(() => !entry().repairing, 10_000, "the repair ends");
    expect(entry().state).toBe("dead");
    expect(
      w
        .keeper(0)
        .status()
        .completedRepairs.some((repair) => repair.backend === victim && repair.kind === "repair"),
    ).toBe(true);
  });

  it("is ended by a successor that finds the repair done in the log, its owner having died before saying so", async () => {
    world = new KeeperWorld({ backends: 6, keepers: 3 });
    world.startAll();
    const w = world;
    await w.until(() => [0, 1, 2].every((i) => w.allReady(i)), 10_000, "a fresh cluster is ready");
    for (let i = 0; i < 30; i++) await w.write(`bin-${i}`, "k", `v${i}`);
    const [victim] = w.addresses;
    const owner = w.keeperAddresses.indexOf(
      w
        .keeper(0)
        .status()
        .backends.find((backend) => backend.address === victim)!.owner!,
    );
    let killed = false;
    for (const backend of w.backends.values()) {
      backend.onCall = (call, detail) => {
        const marksDone = (detail as Entry[]).some?.(
          (entry) => entry.bin === KEEPER_LOG_BIN && entry.key === "done",
        );
        if (call !== "apply" || killed || !marksDone) return;
        killed = true;
        void w.stopKeeper(owner);
      };
    }
    w.backend(victim!).fault = "down";
    await w.until(() => killed, 15_000, "the owner dies as it marks the repair done");

    const successors = [0, 1, 2].filter((i) => i !== owner);
    const entry = (i: number) =>
      w
        .keeper(i)
        .view()
        .backends.find((backend) => backend.address === victim)!;
    expect(successors.some((i) => entry(i).repairing)).toBe(true);
    await w.until(
      () => successors.every((i) => entry(i).state === "dead" && !entry(i).repairing),
      30_000,
      "the successors publish the repair done",
    );
  });
});
