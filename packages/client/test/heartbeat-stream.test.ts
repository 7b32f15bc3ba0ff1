// A keeper's heartbeats to a backend share one stream, answered by id: a
// heartbeat that times out leaves the stream open for the next, and a stream
// that breaks fails what was in flight on it, the next heartbeat opening a new
// one. Against an in-process gRPC server that answers as each test says.
import {
  type HeartbeatAnswer,
  type HeartbeatCall__Output,
  loadProtocol,
  StoreUnavailableError,
  TimeoutError,
  toServiceError,
} from "@binring/core";
import * as grpc from "@grpc/grpc-js";
import { afterEach, expect, it } from "vitest";
import { BackendChannel } from "../src/backend-channel.js";

type Call = grpc.ServerDuplexStream<HeartbeatCall__Output, HeartbeatAnswer>;

let server: grpc.Server | undefined;
let channel: BackendChannel | undefined;
afterEach(() => {
  channel?.close();
  server?.forceShutdown();
});

/** A backend whose Heartbeats streams are handed to `onStream`; returns a channel to it. */
async function backend(onStream: (call: Call) => void): Promise<BackendChannel> {
  server = new grpc.Server();
  server.addService(loadProtocol().StorageControl.service, { Heartbeats: onStream });
  const port = await new Promise<number>((resolve, reject) =>
    server!.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  channel = new BackendChannel(`127.0.0.1:${port}`);
  return channel;
}

const reply = (incarnation: string) => ({ incarnation, clock: "7" });

it("answers each heartbeat by its id, in whatever order the backend answers", async () => {
  const streams: Call[] = [];
  const held: HeartbeatCall__Output[] = [];
  const channel = await backend((call) => {
    streams.push(call);
    call.on("data", (message: HeartbeatCall__Output) => {
      held.push(message);
      // Answered last first, once three have come.
      if (held.length === 3)
        for (const { id, heartbeat } of held.reverse()) call.write({ id, reply: reply(heartbeat!.keeper) });
    });
  });
  const replies = await Promise.all(["a", "b", "c"].map((keeper) => channel.heartbeat({ keeper }, 5000)));
  expect(replies.map((r) => [r.incarnation, r.clock])).toEqual([
    ["a", "7"],
    ["b", "7"],
    ["c", "7"],
  ]);
  expect(streams).toHaveLength(1);
});

it("fails a heartbeat not answered in time, and answers the next on the same stream", async () => {
  const streams: Call[] = [];
  const channel = await backend((call) => {
    streams.push(call);
    call.on("data", ({ id, heartbeat }: HeartbeatCall__Output) => {
      if (heartbeat!.keeper !== "silent") call.write({ id, reply: reply(heartbeat!.keeper) });
    });
  });
  await expect(channel.heartbeat({ keeper: "silent" }, 200)).rejects.toBeInstanceOf(TimeoutError);
  expect((await channel.heartbeat({ keeper: "k" }, 5000)).incarnation).toBe("k");
  expect(streams).toHaveLength(1);
});

it("fails the heartbeats in flight on a stream that breaks with its status, and opens a new stream for the next", async () => {
  const streams: Call[] = [];
  const channel = await backend((call) => {
    streams.push(call);
    call.on("data", ({ id, heartbeat }: HeartbeatCall__Output) => {
      if (streams.length === 1) {
        if (heartbeat!.keeper === "second")
          call.emit("error", toServiceError(new StoreUnavailableError("the store went away")));
      } else call.write({ id, reply: reply(heartbeat!.keeper) });
    });
  });
  const inFlight = [
    channel.heartbeat({ keeper: "first" }, 5000).catch((error) => error),
    channel.heartbeat({ keeper: "second" }, 5000).catch((error) => error),
  ];
  for (const failure of await Promise.all(inFlight)) expect(failure).toBeInstanceOf(StoreUnavailableError);
  expect((await channel.heartbeat({ keeper: "k" }, 5000)).incarnation).toBe("k");
  expect(streams).toHaveLength(2);
});
