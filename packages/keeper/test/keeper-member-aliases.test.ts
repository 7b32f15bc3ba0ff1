// One backend process listed as two members (a host name and its IP in the
// cluster file), in process on a fake clock: the backend answers as the first
// address it was called at and refuses heartbeats as the other, which the
// keepers then count dead and repair around, so no bin keeps two copies in one
// process; the choice survives the process restarting, and the operator takes
// the second name off the ring with a plain remove.
import { afterEach, describe, expect, it } from "vitest";
import { KeeperWorld } from "./support/keeper-world.js";

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const SHARED = "127.0.0.1:7101";
const ALIAS = "localhost:7101";

/** Every keeper publishes exactly `dead` as dead, every other member ready, with no work in hand. */
function settledWith(w: KeeperWorld, members: number, dead: string | undefined): boolean {
  return [0, 1, 2].every((i) => {
    const keeper = w.keeper(i);
    const backends = keeper.view().backends;
    return (
      backends.length === members &&
      backends.every((entry) =>
        entry.address === dead ? entry.state === "dead" : entry.state === "ready",
      ) &&
      keeper.status().repairs.length === 0
    );
  });
}

describe("a backend listed under two addresses", () => {
  it("is one member: the other address is refused, counted dead, and removed with a plain remove", async () => {
    world = new KeeperWorld({ backends: 5, keepers: 3 });
    const w = world;
    w.alias(ALIAS, SHARED);
    w.seed.push(ALIAS);
    w.startAll();
    const refused = () => [SHARED, ALIAS].find((address) => w.stateOf(address) === "dead");
    await w.until(() => refused() !== undefined && settledWith(w, 6, refused()), 30_000, "one name refused");
    const kept = refused() === ALIAS ? SHARED : ALIAS;
    expect(w.backend(SHARED).node.ready).toBe(true);
    for (let i = 0; i < 40; i++) expect(await w.write(`bin-${i}`, "k", `v${i}`)).toHaveLength(3);

    // Long after: the refused address is never taken for a backend that came back (emptied, filled).
    await w.clock.advance(20_000);
    expect(settledWith(w, 6, refused())).toBe(true);

    // A restart over the same store: the process is the same member as before, not the other one.
    w.backend(SHARED).restart("kept");
    await w.until(() => w.stateOf(kept) !== "ready", 10_000, "the restart is seen");
    await w.until(() => settledWith(w, 6, refused()), 30_000, "the same name ready again");
    const live = new Set([...w.seed].filter((address) => address !== refused()));
    for (let i = 0; i < 40; i++) {
      const replicas = w.keeper(0).ring.replicasFor(`bin-${i}`, (address) => live.has(address));
      if (replicas.includes(kept)) expect(await w.stored(kept, `bin-${i}`, "k")).toBe(`v${i}`);
    }

    const second = refused()!;
    expect(await w.keeper(0).removeBackend(second)).toEqual({ changed: true, status: "leaving" });
    await w.until(() => settledWith(w, 5, undefined), 30_000, "the second name left the ring");
    expect(
      w
        .keeper(1)
        .view()
        .backends.map((entry) => entry.address),
    ).not.toContain(second);
    expect(w.backend(SHARED).node.ready).toBe(true);
  });
});
