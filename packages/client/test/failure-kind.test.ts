// A failure is classified by its class alone: errors rebuilt from the code
// and reason that crossed the wire keep their kind whatever their message
// says, and a message that merely mentions a refusal or a failed store
// changes nothing. A real channel to a port nothing listens on reports the
// refusal as its own class.
import { type AddressInfo, createServer } from "node:net";
import {
  ConnectionRefusedError,
  errorFromStatus,
  type HeartbeatAnswer,
  type HeartbeatCall__Output,
  loadProtocol,
  NotReadyError,
  PermissionDeniedError,
  StaleEpochError,
  StatusCode,
  StoreUnavailableError,
  TimeoutError,
  toOperationError,
  toServiceError,
  UnavailableError,
} from "@binring/core";
import * as grpc from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { BackendChannel } from "../src/backend-channel.js";
import { classifyFailure, reportsRefusedConnection } from "../src/failure-kind.js";

describe("classifyFailure", () => {
  it("classifies a NOT_READY reason as not-ready, its message reworded", () => {
    const error = errorFromStatus(StatusCode.FAILED_PRECONDITION, "replica still filling", {
      reason: "ERROR_REASON_NOT_READY",
    });
    expect(classifyFailure(error)).toBe("not-ready");
  });

  it("classifies a STORE_UNAVAILABLE reason as gone without a probe, its message reworded", () => {
    const error = errorFromStatus(StatusCode.UNAVAILABLE, "redis went away", {
      reason: "ERROR_REASON_STORE_UNAVAILABLE",
    });
    expect(classifyFailure(error)).toBe("gone");
    expect(reportsRefusedConnection(error)).toBe(false);
  });

  it("does not count a message mentioning ECONNREFUSED or a failed store as gone without the class", () => {
    for (const message of [
      "backend 127.0.0.1:1 unavailable: connect ECONNREFUSED 127.0.0.1:1",
      "store unavailable: redis: connect ECONNREFUSED",
    ]) {
      const error = new UnavailableError(message);
      expect(classifyFailure(error)).toBe("retry");
      expect(reportsRefusedConnection(error)).toBe(false);
      // An older peer's error, without a reason: the plain class of its code.
      expect(classifyFailure(errorFromStatus(StatusCode.UNAVAILABLE, message))).toBe("retry");
    }
    expect(classifyFailure(errorFromStatus(StatusCode.FAILED_PRECONDITION, "not ready: filling"))).toBe(
      "retry",
    );
  });

  it("counts a refused connection as gone, to be confirmed by a fresh connection", () => {
    const error = new ConnectionRefusedError("backend 127.0.0.1:1 unavailable");
    expect(classifyFailure(error)).toBe("gone");
    expect(reportsRefusedConnection(error)).toBe(true);
  });

  it("keeps the other classes' kinds", () => {
    expect(classifyFailure(new NotReadyError("filling"))).toBe("not-ready");
    expect(classifyFailure(new PermissionDeniedError("a client certificate"))).toBe("fatal");
    expect(classifyFailure(new StoreUnavailableError("redis: ECONNRESET"))).toBe("gone");
    expect(classifyFailure(new TimeoutError("slow"))).toBe("retry");
  });
});

describe("BackendChannel to a server that fails calls", () => {
  it("rebuilds the error class and a stale view's epochs from a unary call's trailers and a heartbeat's answer", async () => {
    const server = new grpc.Server();
    server.addService(loadProtocol().StorageControl.service, {
      Drop: (_call: unknown, callback: grpc.sendUnaryData<never>) =>
        callback(toServiceError(new StoreUnavailableError("the store went away"))),
      // Each heartbeat answered with the error it failed with, by its id.
      Heartbeats: (call: grpc.ServerDuplexStream<HeartbeatCall__Output, HeartbeatAnswer>) =>
        call.on("data", ({ id }: HeartbeatCall__Output) =>
          call.write({ id, error: toOperationError(new StaleEpochError(3n, 5n)) }),
        ),
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    const channel = new BackendChannel(`127.0.0.1:${port}`);
    try {
      const dropped = await channel.drop([], 0n).catch((error) => error);
      expect(dropped).toBeInstanceOf(StoreUnavailableError);
      expect(classifyFailure(dropped)).toBe("gone");
      const stale = await channel.heartbeat({}).catch((error) => error);
      expect(stale).toBeInstanceOf(StaleEpochError);
      expect([stale.callerEpoch, stale.currentEpoch]).toEqual([3n, 5n]);
    } finally {
      channel.close();
      server.forceShutdown();
    }
  });
});

/** A port that was free a moment ago and is closed again: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("BackendChannel to a port nothing listens on", () => {
  it("fails Pipe operations, unary calls and heartbeats with ConnectionRefusedError", async () => {
    const channel = new BackendChannel(`127.0.0.1:${await closedPort()}`, { callTimeoutMs: 5000 });
    try {
      const piped = await channel.execute({ clock: { target: { bin: "b" } } }).catch((error) => error);
      expect(piped).toBeInstanceOf(ConnectionRefusedError);
      expect(classifyFailure(piped)).toBe("gone");
      const unary = await channel.drop([], 0n).catch((error) => error);
      expect(unary).toBeInstanceOf(ConnectionRefusedError);
      const heartbeat = await channel.heartbeat({}).catch((error) => error);
      expect(heartbeat).toBeInstanceOf(ConnectionRefusedError);
    } finally {
      channel.close();
    }
  });
});
