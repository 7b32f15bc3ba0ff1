// Sets a coordinator sent to every replica at once, withheld from this
// backend's readers until the replicas after it hold them (withheld-entries.ts,
// backend-node.ts): what waits for a release, what does not, and what a
// release, an empty or the passing of time does. In process, on the memory
// engine, with an injected clock.
import { DEFAULT_LIMITS, InvalidArgumentError, ringPoint, type Stamp, WHOLE_RING } from "@binring/core";
import { describe, expect, it } from "vitest";
import type { WriteRequest } from "../src/backend-calls.js";
import { BackendNode } from "../src/backend-node.js";
import { MemoryEngine } from "../src/memory-engine.js";
import { RELEASE_AFTER_MS, RELEASE_AWAITED_AFTER_MS } from "../src/withheld-entries.js";

const LATER = ["10.0.0.2:7000", "10.0.0.3:7000"];
const target = { bin: "b", epoch: 0n, requireReady: false };

function stamp(clock: number): Stamp {
  return { clock: BigInt(clock), writer: "0123456789abcdef", seq: clock };
}

function backend() {
  const clock = { now: 0 };
  const node = new BackendNode({ engine: new MemoryEngine(), limits: DEFAULT_LIMITS, now: () => clock.now });
  const set = (key: string, value: string, at: number, later = LATER, bin = "b") =>
    node.write({ ...target, bin }, { kind: "set", key, value, stamp: stamp(at), later });
  return { node, clock, set };
}

/** Whether the promise has settled once every job queued so far has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

async function scanned(node: BackendNode, ranges = WHOLE_RING): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of node.scan(ranges, 100)) keys.push(...batch.map((entry) => entry.key));
  return keys;
}

describe("a withheld set", () => {
  it("is answered to a get only once released, and then with its value", async () => {
    const { node, set } = backend();
    await set("k", "v", 1);
    const read = node.get(target, "k");
    expect(await settled(read)).toBe(false);
    node.release(target, "k", stamp(1));
    expect((await read)?.value).toBe("v");
  });

  it("holds back no read of another key, nor of the key once a set without later replicas is all it has", async () => {
    const { node, set } = backend();
    await set("k", "v", 1);
    await set("other", "w", 2, []);
    expect((await node.get(target, "other"))?.value).toBe("w");
    expect(await settled(node.get({ ...target, bin: "c" }, "k"))).toBe(true);
  });

  it("is released only by its own stamp", async () => {
    const { node, set } = backend();
    await set("k", "v", 1);
    node.release(target, "k", stamp(2));
    expect(await settled(node.get(target, "k"))).toBe(false);
  });

  it("holds back a keys call whose pattern takes its key in, and none other", async () => {
    const { node, set } = backend();
    await set("user:1", "v", 1);
    await set("item:1", "w", 2, []);
    expect(await node.keys(target, { prefix: "item:" })).toEqual(["item:1"]);
    const all = node.keys(target, {});
    expect(await settled(all)).toBe(false);
    node.release(target, "user:1", stamp(1));
    expect((await all).sort()).toEqual(["item:1", "user:1"]);
  });

  it("holds back the end of a scan of ranges holding its bin, not of others", async () => {
    const { node, set } = backend();
    await set("k", "v", 1);
    const point = ringPoint("b");
    expect(await scanned(node, [{ start: (point + 1) >>> 0, end: point }])).toEqual([]);
    const scan = scanned(node);
    expect(await settled(scan)).toBe(false);
    node.release(target, "k", stamp(1));
    expect(await scan).toEqual(["k"]);
  });

  it("is released by an empty: nothing the store held is read before a fill", async () => {
    const { node, set } = backend();
    await set("k", "v", 1);
    const read = node.get(target, "k");
    await node.empty(node.incarnation);
    expect(await settled(read)).toBe(true);
    expect(node.withheld.size).toBe(0);
  });

  it("is due for its own forward after a while, sooner once a read waits for it", async () => {
    const { node, clock, set } = backend();
    await set("k", "v", 1);
    await set("j", "w", 2);
    clock.now = RELEASE_AWAITED_AFTER_MS;
    expect(node.withheld.due()).toEqual([]);
    expect(await settled(node.get(target, "k"))).toBe(false);
    expect(node.withheld.due().map((entry) => entry.key)).toEqual(["k"]);
    clock.now = RELEASE_AFTER_MS;
    expect(node.withheld.due().map((entry) => entry.key)).toEqual(["k", "j"]);
  });

  it("keeps the newest attempt's later replicas and epoch when the same set comes again", async () => {
    const { node, clock, set } = backend();
    await set("k", "v", 1);
    const again = { kind: "set" as const, key: "k", value: "v", stamp: stamp(1), later: [LATER[1]!] };
    await node.write({ ...target, epoch: 4n }, again);
    clock.now = RELEASE_AFTER_MS;
    const due = node.withheld.due();
    expect(due.map(({ later, epoch }) => ({ later, epoch }))).toEqual([{ later: [LATER[1]], epoch: 4n }]);
  });
});

describe("later replicas", () => {
  it.each<[string, Partial<WriteRequest>, string]>([
    ["an unstamped set", { stamp: undefined }, "got an unstamped set"],
    ["an append", { kind: "append" }, "got a stamped append"],
    [
      "eight backends",
      { later: Array.from({ length: 8 }, (_, i) => `10.0.0.${i}:7000`) },
      "at most 7 backends, got 8",
    ],
    ["a backend twice", { later: [LATER[0]!, LATER[0]!] }, "names a backend twice"],
    ["an address of 262 bytes", { later: [`${"h".repeat(257)}:7000`] }, "later_replicas[0] is 262 bytes"],
  ])("are refused on %s, naming it", async (_, change, message) => {
    const { node } = backend();
    const request: WriteRequest = {
      kind: "set",
      key: "k",
      value: "v",
      stamp: stamp(1),
      later: LATER,
      ...change,
    };
    const write = node.write(target, request);
    await expect(write).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(write).rejects.toThrow(message);
    expect(node.withheld.size).toBe(0);
  });

  it("are taken at their limits: seven backends, an address of 261 bytes", async () => {
    const { node } = backend();
    const later = [`${"h".repeat(256)}:7000`, ...Array.from({ length: 6 }, (_, i) => `10.0.0.${i}:7000`)];
    await node.write(target, { kind: "set", key: "k", value: "v", stamp: stamp(1), later });
    expect(node.withheld.size).toBe(1);
  });
});
