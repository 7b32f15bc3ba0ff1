// The commit point across a keeper's death, in process on a fake clock: an
// intent recorded by a keeper that dies before doing the work is finished by
// the keeper that takes its slice over.
import type { Entry } from "@binring/core";
import { afterEach, describe, expect, it } from "vitest";
import { IntentLog, KEEPER_LOG_BIN } from "../src/intent-log.js";
import { KeeperWorld } from "./support/keeper-world.js";

let world: KeeperWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("intent log", () => {
  it("a successor finishes the intent a dead keeper recorded", async () => {
    world = new KeeperWorld({ backends: 6, keepers: 2 });
    world.startAll();
    const w = world;
    await w.until(() => w.allReady(0) && w.allReady(1), 10_000, "a fresh cluster is ready");
    for (let i = 0; i < 30; i++) await w.write(`bin-${i}`, "k", `v${i}`);
    const dying = [...w.keeper(0).slice][0]!;

    // Keeper 0 dies just as it records the repair of `dying`: the intent is on the log, the work not done.
    let intentId: string | undefined;
    for (const backend of w.backends.values()) {
      backend.onCall = (call, detail) => {
        if (call !== "apply" || intentId !== undefined) return;
        const intent = (detail as Entry[]).find(
          (entry) => entry.bin === KEEPER_LOG_BIN && entry.key === "intents",
        );
        if (!intent) return;
        intentId = (JSON.parse(intent.value) as { id: string }).id;
        void w.stopKeeper(0);
      };
    }
    w.backend(dying).fault = "down";
    await w.until(() => intentId !== undefined, 15_000, "keeper 0 records the repair");

    const finished = () =>
      w
        .keeper(1)
        .status()
        .completedRepairs.find((repair) => repair.id === intentId);
    await w.until(() => finished() !== undefined, 30_000, "keeper 1 finishes keeper 0's repair");
    expect(finished()).toMatchObject({ kind: "repair", backend: dying, recovered: true });
    expect(w.keeper(1).slice.size).toBe(6);
    // Marked done on the log: no keeper runs it again.
    const live = w.addresses.filter((address) => address !== dying);
    const log = await new IntentLog((address) => w.backend(address), 1000).read(live);
    expect(log.intents.map((intent) => intent.id)).toContain(intentId);
    expect(log.done.has(intentId!)).toBe(true);
  });
});
