// A backend's own release of a set it withholds (withheld-release.ts): due
// sets are forwarded to the replicas after this one — in a cluster without
// keepers those the write listed, with keepers those the view places the bin
// on now — and shown once each holds them or is gone. In process: a memory
// engine, an injected clock, a placement and replicas that answer as a test
// says.
import {
  ConnectionRefusedError,
  DEFAULT_LIMITS,
  type Operation,
  type OperationResult__Output,
  type Stamp,
  SupersededAttemptError,
  TimeoutError,
} from "@binring/core";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { BackendNode } from "../src/backend-node.js";
import type { BinPlacement } from "../src/backend-placement.js";
import { MemoryEngine } from "../src/memory-engine.js";
import { FORWARD_WINDOW_MS, RELEASE_AWAITED_AFTER_MS } from "../src/withheld-entries.js";
import { type ForwardOutcome, RELEASE_RETRY_MS, WithheldRelease } from "../src/withheld-release.js";

const [HERE, MIDDLE, LAST, NEWCOMER] = ["10.0.0.1:7000", "10.0.0.2:7000", "10.0.0.3:7000", "10.0.0.9:7000"];
const target = { bin: "b", epoch: 0n, requireReady: false };
const stamp = { clock: 1n, writer: "0123456789abcdef", seq: 1 };
const took: OperationResult__Output = {
  result: "write",
  write: { stamp: null, removed: "0", ready: true, superseded: false, clock: "2", restamps: 0 },
};

/** `placement`: what the view says of the bin (absent: no view yet; an error: it cannot be read); a cluster without keepers by default. */
function setup({ placement }: { placement?: BinPlacement | Error } = { placement: "no keepers" }) {
  const clock = { now: 0 };
  const node = new BackendNode({ engine: new MemoryEngine(), limits: DEFAULT_LIMITS, now: () => clock.now });
  const answers = new Map<string, (operation: Operation) => OperationResult__Output>(
    [MIDDLE!, LAST!, NEWCOMER!].map((address) => [address, () => took]),
  );
  const sent: { to: string; op: string; epoch?: string }[] = [];
  /** The largest stamp of the write the store holds (store-engine.ts `claim`). */
  const applied: { stamp: Stamp | null } = { stamp: null };
  const peers = {
    execute: async (to: string, operation: Operation) => {
      sent.push({ to, op: Object.keys(operation)[0]!, epoch: operation.set?.target?.epoch?.toString() });
      return answers.get(to)!(operation);
    },
    refusesConnections: async (to: string) => to === LAST && answers.get(LAST!) === refuse,
  };
  const notify = (to: string, operation: Operation) => sent.push({ to, op: Object.keys(operation)[0]! });
  const outcomes: ForwardOutcome[] = [];
  const claims = { count: 0 };
  const release = new WithheldRelease({
    node,
    placement: async () => {
      if (placement instanceof Error) throw placement;
      return placement;
    },
    appliedStamp: async () => applied.stamp,
    forwarder: { peers, time: { now: () => clock.now, sleep: async () => undefined }, notify },
    logger: pino({ level: "silent" }),
    now: () => clock.now,
    ended: (outcome) => outcomes.push(outcome),
    newClaimId: () => `fresh-${++claims.count}`,
  });
  return { node, clock, answers, sent, release, applied, outcomes };
}

function refuse(): never {
  throw new ConnectionRefusedError(`backend ${LAST} unavailable: connect ECONNREFUSED`);
}

function superseded(): never {
  throw new SupersededAttemptError("an attempt of write 0123456789abcdef:1 under another claim took over");
}

/**
 * A replica whose fence on the write is `fence.claim` (write-fences.ts): it
 * takes the set only under that claim, and a claim moves the fence, answered
 * with the largest stamp it holds of the write.
 */
function fenced(fence: { claim: string; holds?: Stamp }) {
  return (operation: Operation): OperationResult__Output => {
    if (operation.claim) {
      fence.claim = operation.claim.claim!;
      const held = fence.holds && {
        clock: fence.holds.clock.toString(),
        writer: fence.holds.writer,
        seq: fence.holds.seq,
      };
      return { result: "claim", claim: { stamp: held ?? null } } as OperationResult__Output;
    }
    if (operation.set?.claim !== fence.claim) superseded();
    return took;
  };
}

function silent(): never {
  throw new TimeoutError(`backend ${LAST} did not answer within 2000 ms`);
}

async function withheldAndAwaited(node: BackendNode, clock: { now: number }) {
  await node.write(
    { ...target, epoch: 3n },
    { kind: "set", key: "k", value: "v", stamp, later: [MIDDLE!, LAST!] },
  );
  const read = node.get(target, "k");
  await new Promise((resolve) => setImmediate(resolve));
  clock.now = RELEASE_AWAITED_AFTER_MS;
  return { read };
}

describe("a withheld set nobody releases", () => {
  it("is forwarded to the replicas after this one, then shown, and the middle one is released", async () => {
    const { node, clock, sent, release, outcomes } = setup();
    const { read } = await withheldAndAwaited(node, clock);
    await release.sweep();
    expect((await read)?.value).toBe("v");
    expect(sent).toEqual([
      { to: MIDDLE, op: "set", epoch: "3" },
      { to: LAST, op: "set", epoch: "3" },
      { to: MIDDLE, op: "release" },
    ]);
    expect(outcomes).toEqual(["released"]);
  });

  it("stays withheld while a later replica does not answer, forwarded again only after a rest", async () => {
    const { node, clock, answers, sent, release, outcomes } = setup();
    answers.set(LAST!, silent);
    await withheldAndAwaited(node, clock);
    await release.sweep();
    expect(node.withheld.size).toBe(1);
    await release.sweep();
    expect(sent.filter(({ op }) => op === "set")).toHaveLength(2);
    clock.now += RELEASE_RETRY_MS;
    answers.set(LAST!, () => took);
    await release.sweep();
    expect(node.withheld.size).toBe(0);
    expect(outcomes).toEqual(["lacking", "released"]);
  });

  it("is shown once a later replica that refuses connections is found gone, and no longer waits for it", async () => {
    const { node, clock, answers, sent, release } = setup();
    answers.set(LAST!, refuse);
    const { read } = await withheldAndAwaited(node, clock);
    await release.sweep();
    expect((await read)?.value).toBe("v");
    expect(sent.filter(({ op }) => op === "release")).toEqual([{ to: MIDDLE, op: "release" }]);
  });
});

describe("a withheld set nobody releases, in a cluster with keepers", () => {
  it("goes to the replicas after this one as the view at this backend's epoch places the bin, under that epoch", async () => {
    // The view moved on: the first backup is dead, a stand-in took the third place.
    const { node, clock, sent, release } = setup({
      placement: { epoch: 9n, replicas: [HERE!, LAST!, NEWCOMER!], self: HERE! },
    });
    const { read } = await withheldAndAwaited(node, clock);
    await release.sweep();
    expect((await read)?.value).toBe("v");
    expect(sent.filter(({ op }) => op === "set")).toEqual([
      { to: LAST, op: "set", epoch: "9" },
      { to: NEWCOMER, op: "set", epoch: "9" },
    ]);
  });

  it("goes to every replica of the bin when this backend is no longer one", async () => {
    const { node, clock, sent, release } = setup({
      placement: { epoch: 9n, replicas: [NEWCOMER!, MIDDLE!, LAST!], self: HERE! },
    });
    await withheldAndAwaited(node, clock);
    await release.sweep();
    expect(sent.filter(({ op }) => op === "set").map(({ to }) => to)).toEqual([NEWCOMER, MIDDLE, LAST]);
    expect(node.withheld.size).toBe(0);
  });

  it("waits while no view at this backend's epoch is at hand", async () => {
    const { node, clock, sent, release } = setup({});
    await withheldAndAwaited(node, clock);
    await release.sweep();
    expect(sent).toEqual([]);
    expect(node.withheld.size).toBe(1);
  });

  it("is sent again after a rest when a newer attempt of its write refused it, and shown once taken", async () => {
    const { node, clock, answers, sent, release, outcomes } = setup({
      placement: { epoch: 9n, replicas: [HERE!, MIDDLE!, LAST!], self: HERE! },
    });
    answers.set(MIDDLE!, superseded);
    await withheldAndAwaited(node, clock);
    await release.sweep();
    expect(node.withheld.size).toBe(1);
    // The newer attempt settled on this stamp: its fence now takes the set.
    answers.set(MIDDLE!, () => took);
    clock.now += RELEASE_RETRY_MS;
    await release.sweep();
    expect(sent.filter(({ to, op }) => to === MIDDLE && op === "set")).toHaveLength(2);
    expect(node.withheld.size).toBe(0);
    expect(outcomes).toEqual(["superseded", "released"]);
  });

  it("is shown once a later stamp of the same write, from a newer attempt, outranks it here", async () => {
    const { node, clock, answers, release, outcomes, applied } = setup({
      placement: { epoch: 9n, replicas: [HERE!, MIDDLE!, LAST!], self: HERE! },
    });
    answers.set(MIDDLE!, superseded);
    await withheldAndAwaited(node, clock);
    applied.stamp = { ...stamp, clock: 8n };
    await release.sweep();
    expect(node.withheld.size).toBe(0);
    expect(outcomes).toEqual(["outranked"]);
  });

  it("is claimed afresh when a newer attempt claimed its write and went no further, then sent under that claim at once and shown", async () => {
    const { node, clock, answers, sent, release, outcomes } = setup({
      placement: { epoch: 9n, replicas: [HERE!, MIDDLE!, LAST!], self: HERE! },
    });
    // The writer's retry fenced the write on both later replicas, then gave up before sending it.
    const fences = [{ claim: "retry" }, { claim: "retry" }];
    answers.set(MIDDLE!, fenced(fences[0]!));
    answers.set(LAST!, fenced(fences[1]!));
    const { read } = await withheldAndAwaited(node, clock);
    await release.sweep();
    expect((await read)?.value).toBe("v");
    expect(node.withheld.size).toBe(0);
    expect(sent.filter(({ op }) => op !== "release").map(({ to, op }) => `${op} ${to}`)).toEqual([
      `set ${MIDDLE}`,
      `set ${LAST}`,
      `claim ${MIDDLE}`,
      `claim ${LAST}`,
      `set ${MIDDLE}`,
      `set ${LAST}`,
    ]);
    expect(fences.map(({ claim }) => claim)).toEqual(["fresh-1", "fresh-1"]);
    expect(outcomes).toEqual(["released"]);
  });

  it("keeps its claim, and stays withheld, when a later replica holds a larger stamp of its write", async () => {
    const { node, clock, answers, release, outcomes } = setup({
      placement: { epoch: 9n, replicas: [HERE!, MIDDLE!, LAST!], self: HERE! },
    });
    answers.set(MIDDLE!, fenced({ claim: "retry", holds: { ...stamp, clock: 8n } }));
    answers.set(LAST!, fenced({ claim: "retry" }));
    await withheldAndAwaited(node, clock);
    await release.sweep();
    clock.now += RELEASE_RETRY_MS;
    await release.sweep();
    expect(node.withheld.size).toBe(1);
    expect(outcomes).toEqual(["superseded", "superseded"]);
  });

  it("is tried again later when the view cannot be read, and nothing is thrown", async () => {
    const { node, clock, sent, release, outcomes } = setup({ placement: new Error("no keeper answered") });
    await withheldAndAwaited(node, clock);
    await release.sweep();
    expect(sent).toEqual([]);
    expect(node.withheld.due()).toEqual([]);
    clock.now += RELEASE_RETRY_MS;
    expect(node.withheld.due()).toHaveLength(1);
    expect(outcomes).toEqual(["failed"]);
  });

  it("gives up past its forward window: the backend serves no reads until a keeper refills it", async () => {
    const { node, clock, answers, sent, release, outcomes } = setup({
      placement: { epoch: 9n, replicas: [HERE!, MIDDLE!, LAST!], self: HERE! },
    });
    await node.heartbeat({ epoch: 0n, clockFloor: 0n, ready: true, leaseMs: 0, filled: true });
    answers.set(LAST!, silent);
    await withheldAndAwaited(node, clock);
    await release.sweep();
    expect(node.ready).toBe(true);
    clock.now = FORWARD_WINDOW_MS;
    const forwards = sent.length;
    await release.sweep();
    expect(sent).toHaveLength(forwards);
    expect(node.ready).toBe(false);
    expect(node.withheld.size).toBe(1);
    await node.empty(node.incarnation);
    expect(node.withheld.size).toBe(0);
    expect(outcomes).toEqual(["lacking", "gave_up"]);
  });
});
