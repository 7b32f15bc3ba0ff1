// Replicas may differ for a while: one back on an empty store has its clock at
// 0 until keeper clock sync reaches it, and a list may be at its limit on one
// replica only. A write one of them refuses after others took it must not be
// reported as failed (it may take effect). A replica whose clock is merely
// behind answers "clock behind", not "bad request", and the writer raises its
// clock and goes on. No keepers here, so nothing else moves a clock.
import { BackendChannel, BinClient } from "@binring/client";
import { ClockBehindError, HashRing, MAX_CLOCK_JUMP, OutcomeUnknownError } from "@binring/core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LocalCluster } from "../support/index.js";

let cluster: LocalCluster;
let ring: HashRing;

beforeAll(async () => {
  cluster = await LocalCluster.start({ backends: 3 });
  ring = new HashRing(cluster.addresses.map((id) => ({ id })));
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

/** Raises a backend's clock as keeper clock sync does (a heartbeat floor may jump any distance below the ceiling). */
async function raiseClock(address: string, floor: bigint): Promise<void> {
  const channel = new BackendChannel(address);
  try {
    await channel.heartbeat({ epoch: "0", clockFloor: floor.toString() });
  } finally {
    channel.close();
  }
}

it("a write that reaches a replica whose clock is far behind raises that clock and lands on every replica", async () => {
  const [primary, firstBackup, lastBackup] = ring.replicasFor("behind") as [string, string, string];
  const ahead = 3n * MAX_CLOCK_JUMP;
  // The primary (stamps come from it) and the last backup (applied first) are far ahead; the first backup is at its start.
  await raiseClock(primary, ahead);
  await raiseClock(lastBackup, ahead);

  // The backend itself still refuses a stamp that far above its clock, as "clock behind".
  const raw = new BackendChannel(firstBackup);
  await expect(
    raw.execute({
      set: {
        target: { bin: "behind", epoch: "0", requireReady: false },
        key: "k",
        value: "raw",
        stamp: { clock: ahead.toString(), writer: "0123456789abcdef", seq: 1 },
      },
    }),
  ).rejects.toBeInstanceOf(ClockBehindError);

  const client = new BinClient({ backends: cluster.addresses, callTimeoutMs: 1500 });
  await client.bin("behind").set("k", "v1");
  for (const address of [primary, firstBackup, lastBackup]) {
    const channel = address === firstBackup ? raw : new BackendChannel(address);
    const reply = await channel.execute({
      get: { target: { bin: "behind", epoch: "0", requireReady: false }, key: "k" },
    });
    expect(reply.get?.value, address).toBe("v1");
    if (channel !== raw) channel.close();
  }
  raw.close();
  await client.close();
}, 30_000);

it("an append refused by one replica's list limit after others took it is reported as of unknown outcome, not failed", async () => {
  const [primary] = ring.replicasFor("full") as [string, string, string];
  // Only the primary (applied last) holds a list just under its limit: repair copies are not limited.
  const big = "x".repeat(1024 * 1024 - 100);
  const channel = new BackendChannel(primary);
  await channel.apply(
    Array.from({ length: 8 }, (_, seq) => ({
      bin: "full",
      key: "l",
      kind: "append" as const,
      value: `${seq}${big}`,
      stamp: { clock: 5n, writer: "0123456789abcdef", seq },
    })),
    0n,
  );
  channel.close();

  const client = new BinClient({ backends: cluster.addresses, callTimeoutMs: 5000 });
  const error = await client
    .bin("full")
    .listAppend("l", "y".repeat(1024))
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(OutcomeUnknownError);
  expect((error as Error).message).toMatch(
    /taken by 2 replica\(s\), then refused by 127\.0\.0\.1:\d+; .*list full/,
  );
  await client.close();
}, 30_000);
