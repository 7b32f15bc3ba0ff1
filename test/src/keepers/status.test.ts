// /status and `binring status` show a killed backend as dead within 3 s (with
// production timing: a heartbeat per second, three misses) and a repair's progress.
import { BinClient } from "@binring/client";
import * as grpc from "@grpc/grpc-js";
import { afterAll, expect, it } from "vitest";
import { keeperStatus, LocalCluster, runCli, waitFor, waitForSettled } from "../support/index.js";

let cluster: LocalCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

it("reports a killed backend dead within 3 s, then the repair", async () => {
  cluster = await LocalCluster.start({ backends: 4, keepers: 1, keeperArgs: ["--copy-batch", "50"] });
  const http = (await cluster.keeperProcesses[0]!.waitForLine(/"http":"([^"]+)"/))[1]!;
  await waitForSettled(http, Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])));
  // Each backend holds its owner's claim (backend/src/ownership.ts), and says so.
  await waitFor("every backend to report its owner's claim", async () =>
    (await keeperStatus(http)).backends.every((b) => b.owner !== null && b.claimedBy === b.owner),
  );
  const client = new BinClient({ backends: cluster.addresses, keepers: cluster.keepers });
  for (let i = 0; i < 20; i++) {
    await Promise.all(Array.from({ length: 100 }, (_, j) => client.bin(`b${j}`).set(`k${i}`, "v")));
  }
  expect((await fetch(`http://${http}/health`)).status).toBe(200);
  // A scraper's query string does not change the path.
  const queried = await fetch(`http://${http}/status?_=${Date.now()}`);
  expect(queried.status).toBe(200);
  expect(((await queried.json()) as { backends: unknown[] }).backends).toHaveLength(cluster.addresses.length);

  const victim = cluster.addresses[0]!;
  const killedAt = performance.now();
  await cluster.kill(victim, { withRedis: true });
  await waitFor(
    "the keeper to report the victim dead",
    async () => (await keeperStatus(http)).backends.find((b) => b.address === victim)?.state === "dead",
  );
  const detectionMs = performance.now() - killedAt;
  // Dead at the third missed probe (2 to 3 s after the kill); a little slack for polling.
  expect(detectionMs).toBeLessThan(3500);

  const cli = await runCli(["status", "--config", cluster.configPath]);
  expect(cli.code).toBe(0);
  expect(cli.stdout).toMatch(new RegExp(`${victim.replace(/\./g, "\\.")}\\s+dead`));
  expect(cli.stdout).toMatch(/view epoch \d+/);
  expect(cli.stdout).toMatch(/OWNER\s+CLAIMED BY/);
  const settled = await waitForSettled(http, { [victim]: "dead" });
  expect(
    settled.completedRepairs.some((r) => r.kind === "repair" && r.backend === victim && r.entries > 0),
  ).toBe(true);
  const json = await runCli(["status", "--config", cluster.configPath, "--json"]);
  expect(JSON.parse(json.stdout).backends).toHaveLength(4);

  // A Beat that is not protobuf is the caller's error, not the keeper's: INVALID_ARGUMENT, and it keeps serving.
  const raw = new grpc.Client(cluster.keepers[0]!, grpc.credentials.createInsecure());
  const refused = await new Promise<grpc.ServiceError | null>((resolve) =>
    raw.makeUnaryRequest(
      "/binring.v1.KeeperPeer/Beat",
      () => Buffer.from([0x1a, 0x7f, 0x01]),
      (bytes: Buffer) => bytes,
      {},
      (error) => resolve(error),
    ),
  );
  raw.close();
  expect(refused?.code).toBe(grpc.status.INVALID_ARGUMENT);
  expect(refused?.details).toMatch(/^Beat: the request \(3 bytes\) is not a valid binring\.v1 message: /);
  expect((await keeperStatus(http)).backends).toHaveLength(4);
  console.info(`status: dead after ${Math.round(detectionMs)} ms`);
  await client.close();
}, 60_000);
