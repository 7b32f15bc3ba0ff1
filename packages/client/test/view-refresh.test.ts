// On-demand view refreshes are rate-limited (a failing call asks for one each
// time), except when a backend refused a call naming an epoch past the view's:
// every call on that view is then refused until the newer view is fetched, so
// waiting out the gap would stall them all (a membership change used to stall
// every call of a busy client for ~150 ms: retries at 10, 20, 40, 80 ms, each
// refused again, until the gap ended). Then every keeper is asked at once: the
// one asked last may not have the epoch yet, or may be too busy to answer soon.
// A keeper here is a gRPC server in this process that serves GetView.
import { loadProtocol } from "@binring/core";
import * as grpc from "@grpc/grpc-js";
import { pino } from "pino";
import { afterAll, expect, it, vi } from "vitest";
import { ClusterView } from "../src/cluster-view.js";

type Reply = grpc.sendUnaryData<unknown>;

const servers: grpc.Server[] = [];
afterAll(() => {
  for (const server of servers) server.forceShutdown();
});

/** A keeper that answers GetView as `serve` does; its address. */
async function keeper(serve: (reply: Reply) => void): Promise<string> {
  const server = new grpc.Server();
  servers.push(server);
  server.addService(loadProtocol().Keeper.service, {
    GetView: (_call: unknown, reply: Reply) => serve(reply),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return `127.0.0.1:${port}`;
}

function viewOf(epoch: bigint) {
  return { epoch: String(epoch), backends: [], keepers: [] };
}

/**
 * Two keepers: `busy` serves epoch 5 until slowDown(), then holds its answers in `held`; `current`
 * serves epoch 6.
 */
async function busyAndCurrent() {
  let slow = false;
  const held: Reply[] = [];
  const busy = await keeper((reply) => (slow ? held.push(reply) : reply(null, viewOf(5n))));
  const current = await keeper((reply) => reply(null, viewOf(6n)));
  return {
    busy,
    current,
    held,
    slowDown: () => {
      slow = true;
    },
  };
}

function clusterView(keepers: string[], minRefreshGapMs = 60_000): ClusterView {
  return new ClusterView({
    keepers,
    refreshIntervalMs: 60_000,
    minRefreshGapMs,
    onNewerView: () => {},
    onMembers: () => {},
    backends: () => [],
    logger: pino({ level: "silent" }),
  });
}

it("fetches at once, however recent the last fetch, when a backend named a newer epoch", async () => {
  let served = 5n;
  const view = clusterView([await keeper((reply) => reply(null, viewOf(served)))]);
  try {
    // The first fetch, started when the view was made.
    await view.refresh();
    expect(view.epoch).toBe(5n);
    served = 6n;
    await view.refresh();
    expect(view.epoch).toBe(5n);
    await view.refresh(5n);
    expect(view.epoch).toBe(5n);
    await view.refresh(6n);
    expect(view.epoch).toBe(6n);
  } finally {
    view.close();
  }
});

it("reaches a newer epoch in one refresh when the keeper it asked last has not got it yet", async () => {
  let newest = 5n;
  const lagging = await keeper((reply) => reply(null, viewOf(5n)));
  const current = await keeper((reply) => reply(null, viewOf(newest)));
  const view = clusterView([lagging, current], 0);
  try {
    await view.refresh();
    expect(view.epoch).toBe(5n);
    newest = 6n;
    await view.refresh(6n);
    expect(view.epoch).toBe(6n);
    // Periodic refreshes now start from the keeper that had it.
    newest = 7n;
    await view.refresh();
    expect(view.epoch).toBe(7n);
  } finally {
    view.close();
  }
});

it("does not wait for a keeper that is slow to answer when another has the newer epoch", async () => {
  const { busy, current, held, slowDown } = await busyAndCurrent();
  const view = clusterView([busy, current]);
  try {
    await view.refresh();
    slowDown();
    const startedAt = performance.now();
    await view.refresh(6n);
    expect(view.epoch).toBe(6n);
    // Resolved while the busy keeper still holds its answer, not at the 1 s deadline of a call to it.
    expect(held).toHaveLength(1);
    expect(performance.now() - startedAt).toBeLessThan(900);
  } finally {
    for (const reply of held) reply(null, viewOf(5n));
    view.close();
  }
});

it("makes a plain refresh during a catch-up wait for the catch-up, not for the keeper it would ask first", async () => {
  const { busy, current, held, slowDown } = await busyAndCurrent();
  const view = clusterView([busy, current], 0);
  try {
    await view.refresh();
    slowDown();
    const startedAt = performance.now();
    // A refused call asks for the catch-up; its retry then asks for a refresh (read-path.ts, write-path.ts).
    const catchingUp = view.refresh(6n);
    await view.refresh();
    await catchingUp;
    expect(view.epoch).toBe(6n);
    expect(performance.now() - startedAt).toBeLessThan(900);
  } finally {
    for (const reply of held) reply(null, viewOf(5n));
    view.close();
  }
});

it("drops a view that arrives after close: it would open connections to the keepers and backends it lists", async () => {
  const held: Reply[] = [];
  const handedOn: string[] = [];
  const view = new ClusterView({
    keepers: [await keeper((reply) => held.push(reply))],
    refreshIntervalMs: 60_000,
    minRefreshGapMs: 0,
    onNewerView: () => handedOn.push("newer view"),
    onMembers: () => handedOn.push("members"),
    backends: () => [],
    logger: pino({ level: "silent" }),
  });
  const keepersBefore = view.keepers;
  // The fetch the view started when it was made, held by the keeper.
  const inFlight = view.refresh();
  await vi.waitFor(() => expect(held).toHaveLength(1));
  view.close();
  held[0]!(null, {
    epoch: "7",
    backends: [{ address: "127.0.0.1:1", zone: "", state: "BACKEND_STATE_READY" }],
    keepers: ["127.0.0.1:2"],
  });
  await inFlight;
  expect(handedOn).toEqual([]);
  expect(view.epoch).toBe(0n);
  expect(view.keepers).toEqual(keepersBefore);
});
