// On-demand view refreshes are rate-limited (a failing call asks for one each
// time), except when a backend refused a call naming an epoch past the view's:
// every call on that view is then refused until the newer view is fetched, so
// waiting out the gap would stall them all (a membership change used to stall
// every call of a busy client for ~150 ms: retries at 10, 20, 40, 80 ms, each
// refused again, until the gap ended). A keeper here is a gRPC server in this
// process that serves GetView.
import { loadProtocol } from "@binring/core";
import * as grpc from "@grpc/grpc-js";
import { pino } from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ClusterView } from "../src/cluster-view.js";

let server: grpc.Server;
let address: string;
let served = 5n;

beforeAll(async () => {
  server = new grpc.Server();
  server.addService(loadProtocol().Keeper.service, {
    GetView: (_call: unknown, reply: grpc.sendUnaryData<unknown>) =>
      reply(null, { epoch: String(served), backends: [], keepers: [] }),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  address = `127.0.0.1:${port}`;
});
afterAll(() => server.forceShutdown());

it("fetches at once, however recent the last fetch, when a backend named a newer epoch", async () => {
  const view = new ClusterView({
    keepers: [address],
    refreshIntervalMs: 60_000,
    minRefreshGapMs: 60_000,
    onNewerView: () => {},
    onMembers: () => {},
    logger: pino({ level: "silent" }),
  });
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
