// Hostile input over the real wire, against a cluster with a keeper: clocks,
// epochs and stamps at the edge of their type, and writes into the keepers'
// reserved log. After each, the cluster still serves every acknowledged
// write, clocks still increase, and a backend kill is still repaired
// (docs/HAZARDS.md 11-13).
import { BackendChannel, BinClient } from "@binring/client";
import { CLOCK_CEILING, InvalidArgumentError, RESERVED_BIN_PREFIX } from "@binring/core";
import { IntentLog, KEEPER_LOG_BIN } from "@binring/keeper";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keeperStatus, LocalCluster, runCli, waitFor, waitForSettled } from "../support/index.js";

const U64_MAX = 2n ** 64n - 1n;

let cluster: LocalCluster;
let client: BinClient;
let http: string;
const acknowledged = new Map<string, string>();

function allReady(): Record<string, string> {
  return Object.fromEntries(cluster.addresses.map((address) => [address, "ready"]));
}

async function cli(...args: string[]) {
  return runCli([...args, "--config", cluster.configPath]);
}

/** Every write acknowledged so far reads back, through a client made now. */
async function expectAcknowledgedWrites(): Promise<void> {
  const fresh = await BinClient.fromConfig(cluster.configPath);
  try {
    for (const [bin, value] of acknowledged) expect(await fresh.bin(bin).get("k"), bin).toBe(value);
  } finally {
    await fresh.close();
  }
}

async function write(bin: string, value: string): Promise<void> {
  await client.bin(bin).set("k", value);
  acknowledged.set(bin, value);
}

beforeAll(async () => {
  cluster = await LocalCluster.start({ backends: 4, keepers: 1 });
  http = cluster.keeperHttp[0]!;
  await waitForSettled(http, allReady());
  client = await BinClient.fromConfig(cluster.configPath);
  for (let i = 0; i < 20; i++) await write(`before-${i}`, `v${i}`);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await cluster?.stop();
});

describe("clocks", () => {
  it("the issue's transcript: a clock near 2^64 is refused and later writes still win", async () => {
    for (const value of ["v0", "v1", "v2"]) {
      expect((await cli("set", "--bin", "x", "k", value)).code).toBe(0);
    }
    const pushed = await cli("clock", "--bin", "x", "18446744073709551614");
    expect(pushed.code).not.toBe(0);
    expect(pushed.stderr.trim().split("\n")).toHaveLength(1);
    expect(pushed.stderr).toMatch(/atLeast 18446744073709551614 is outside the clock range 0 \.\. 2\^62-1/);
    expect((await cli("set", "--bin", "x", "k", "v3")).code).toBe(0);
    expect((await cli("get", "--bin", "x", "k")).stdout.trim()).toBe("v3");
    const other = await cli("clock", "--bin", "y");
    expect(other.code).toBe(0);
    expect(BigInt(other.stdout.trim())).toBeLessThan(CLOCK_CEILING);
  });

  it("refuses raw clock requests past the ceiling or more than 2^32 ahead, naming value and bound", async () => {
    const address = cluster.addresses[0]!;
    const channel = new BackendChannel(address);
    try {
      const target = { bin: "raw", epoch: "0", requireReady: false };
      for (const atLeast of [U64_MAX, U64_MAX - 1n, CLOCK_CEILING, CLOCK_CEILING - 1n]) {
        await expect(
          channel.execute({ clock: { target, atLeast: atLeast.toString() } }),
          String(atLeast),
        ).rejects.toThrow(
          new RegExp(`atLeast ${atLeast} is (outside the clock range|more than 2\\^32 above)`),
        );
        // Raising before a stamp (what writers do) past the window names this backend as behind.
        await expect(
          channel.execute({ clock: { target, atLeast: atLeast.toString(), raiseOnly: true } }),
        ).rejects.toThrow(/outside the clock range|clock behind/);
        await expect(
          channel.execute({ set: { target, key: "k", value: "v", atLeast: atLeast.toString() } }),
        ).rejects.toBeInstanceOf(InvalidArgumentError);
        await expect(
          channel.execute({
            set: {
              target,
              key: "k",
              value: "v",
              stamp: { clock: atLeast.toString(), writer: "0".repeat(16), seq: 1 },
            },
          }),
        ).rejects.toThrow(/outside the clock range|clock behind/);
      }
      const clock = BigInt((await channel.execute({ clock: { target } })).clock!.clock as string);
      // Within the window a caller may still raise it.
      const raised = clock + 1000n;
      expect(
        BigInt(
          (await channel.execute({ clock: { target, atLeast: raised.toString() } })).clock!.clock as string,
        ),
      ).toBe(raised);
    } finally {
      channel.close();
    }
  });

  it("clocks keep increasing in every bin after the hostile calls", async () => {
    let last = 0n;
    for (let i = 0; i < 20; i++) {
      const clock = await client.bin(`clock-${i % 4}`).clock();
      expect(clock).toBeLessThan(CLOCK_CEILING);
      if (i % 4 === 0) {
        expect(clock).toBeGreaterThan(last);
        last = clock;
      }
    }
    await expectAcknowledgedWrites();
  });
});

describe("epochs", () => {
  it("a data call naming a huge epoch is refused or answered, never adopted", async () => {
    const address = cluster.addresses[1]!;
    const channel = new BackendChannel(address);
    try {
      for (const epoch of [U64_MAX, CLOCK_CEILING]) {
        await expect(
          channel.execute({
            get: { target: { bin: "before-1", epoch: epoch.toString(), requireReady: false }, key: "k" },
          }),
        ).rejects.toThrow(new RegExp(`target.epoch ${epoch} is outside the epoch range`));
      }
      // The largest valid epoch is answered normally, and not adopted.
      const big = (CLOCK_CEILING - 1n).toString();
      await channel.execute({
        get: { target: { bin: "before-1", epoch: big, requireReady: false }, key: "k" },
      });
      await channel.execute({
        set: { target: { bin: "epoch-bin", epoch: big, requireReady: false }, key: "k", value: "x" },
      });
    } finally {
      channel.close();
    }
    // The keeper's status shows the backend at the keeper's own epoch, and every client still works.
    const status = await keeperStatus(http);
    expect(BigInt(status.epoch)).toBeLessThan(2n ** 40n);
    for (let i = 0; i < 10; i++) await write(`after-epoch-${i}`, `e${i}`);
    await expectAcknowledgedWrites();
  });
});

describe("reserved bins", () => {
  it("the SDK and raw data calls refuse the keepers' log bin", async () => {
    expect(() => client.bin(KEEPER_LOG_BIN)).toThrow(InvalidArgumentError);
    expect(() => client.bin(`${RESERVED_BIN_PREFIX}anything`)).toThrow(/is reserved/);
    const channel = new BackendChannel(cluster.addresses[0]!);
    try {
      const target = { bin: KEEPER_LOG_BIN, epoch: "0", requireReady: false };
      await expect(channel.execute({ listAppend: { target, key: "intents", value: "{" } })).rejects.toThrow(
        /is reserved/,
      );
      await expect(channel.execute({ listGet: { target, key: "intents" } })).rejects.toThrow(/is reserved/);
    } finally {
      channel.close();
    }
  });

  it("bad entries in the keeper log (written with Apply) hide no intent: a kill is still repaired", async () => {
    const garbage = ["{", "null", '{"id":"x"}', '{"id":"y","kind":"fill","backend":7}', "[]"];
    await Promise.all(
      cluster.addresses.map(async (address) => {
        const channel = new BackendChannel(address);
        try {
          await channel.apply(
            garbage.map((value, seq) => ({
              bin: KEEPER_LOG_BIN,
              key: "intents",
              kind: "append" as const,
              value,
              stamp: { clock: 1n, writer: "abcdefabcdefabcd", seq },
            })),
            0n,
          );
        } finally {
          channel.close();
        }
      }),
    );
    const channels = new Map(cluster.addresses.map((address) => [address, new BackendChannel(address)]));
    const log = new IntentLog((address) => channels.get(address)!, 5000);
    const intent = {
      id: "hostile-test",
      kind: "repair" as const,
      backend: "127.0.0.1:1",
      wasLive: [],
      by: "test",
      at: Date.now(),
    };
    expect(await log.record(intent, cluster.addresses)).toBe(cluster.addresses.length);
    const contents = await log.read(cluster.addresses);
    expect(contents.intents).toContainEqual(intent);
    expect(contents.intents.map((i) => i.id)).not.toContain("x");
    await log.complete(intent.id, cluster.addresses);
    for (const channel of channels.values()) channel.close();
    const victim = cluster.addresses[2]!;
    await cluster.kill(victim);
    await waitForSettled(http, { ...allReady(), [victim]: "dead" });
    await expectAcknowledgedWrites();
    await cluster.restart(victim, { redis: "old" });
    await waitForSettled(http, allReady());
    const status = await keeperStatus(http);
    expect(status.completedRepairs.map((repair) => repair.kind)).toEqual(
      expect.arrayContaining(["repair", "fill"]),
    );
    await expectAcknowledgedWrites();
  }, 60_000);
});

describe("stamps", () => {
  it("two different entries under one stamp settle on the same value on every replica", async () => {
    const [a, b] = cluster.addresses as [string, string];
    const stamp = { clock: "5", writer: "feedfacefeedface", seq: 9 };
    const target = { bin: "collide", epoch: "0", requireReady: false };
    const first = new BackendChannel(a);
    const second = new BackendChannel(b);
    try {
      await first.execute({ set: { target, key: "k", value: "apple", stamp } });
      await first.execute({ set: { target, key: "k", value: "pear", stamp } });
      await second.execute({ set: { target, key: "k", value: "pear", stamp } });
      await second.execute({ set: { target, key: "k", value: "apple", stamp } });
      const read = async (channel: BackendChannel) =>
        (await channel.execute({ get: { target, key: "k" } })).get?.value;
      expect(await read(first)).toBe(await read(second));
    } finally {
      first.close();
      second.close();
    }
  });
});

it("after everything, the cluster still writes, reads and repairs", async () => {
  await waitFor("every backend ready", async () => {
    const status = await keeperStatus(http);
    return status.backends.every((backend) => backend.state === "ready") && status.repairs.length === 0;
  });
  for (let i = 0; i < 10; i++) await write(`final-${i}`, `f${i}`);
  await expectAcknowledgedWrites();
});
