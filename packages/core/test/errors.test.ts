// An error crosses the wire as its code and reason, and comes back as the
// same class with the same message, whatever the message says: classes are
// never rebuilt from message text, so rewording one changes nothing.
import * as grpc from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import {
  AnotherMemberError,
  BinringError,
  ClockBehindError,
  ConnectionRefusedError,
  decodeBatchReply,
  errorFromStatus,
  fromOperationError,
  fromServiceError,
  InvalidArgumentError,
  ListFullError,
  NotReadyError,
  OutcomeUnknownError,
  OutOfRangeError,
  ReplyTooLargeError,
  ResourceExhaustedError,
  StaleEpochError,
  StatusCode,
  StoreUnavailableError,
  SupersededAttemptError,
  TimeoutError,
  toOperationError,
  toServiceError,
  UnavailableError,
} from "../src/index.js";
import { encodeBatchReply } from "../src/pipe-encode.js";
import type { OperationError__Output } from "../src/wire-types.js";

const ERRORS: BinringError[] = [
  new InvalidArgumentError("key is empty"),
  new OutOfRangeError("clock at its ceiling"),
  new ResourceExhaustedError("store busy"),
  new ListFullError("list k would pass 8 MiB"),
  new ReplyTooLargeError("narrow keys with a prefix"),
  new NotReadyError("being filled"),
  new StaleEpochError(7n, 9n),
  new ClockBehindError("restarted on an empty store"),
  new UnavailableError("shutting down"),
  new StoreUnavailableError("redis is reconnecting"),
  new TimeoutError("no answer in 10 ms"),
  new ConnectionRefusedError("connect ECONNREFUSED 10.0.0.2:7000"),
  new OutcomeUnknownError("taken by 1 replica, then refused by another"),
  new SupersededAttemptError("a newer attempt of this write claimed it"),
  new AnotherMemberError("this backend is already the member 127.0.0.1:7100"),
];

/** An OperationError as the Pipe decoder gives it: every field present. */
function received(error: Partial<OperationError__Output>): OperationError__Output {
  return {
    code: 0,
    message: "",
    reason: "ERROR_REASON_UNSPECIFIED",
    callerEpoch: "0",
    currentEpoch: "0",
    replica: "",
    stamp: null,
    claim: "",
    ...error,
  };
}

/** A failed unary call as grpc-js gives it to the client, from the status a handler sent. */
function serviceError(status: Partial<grpc.StatusObject>): grpc.ServiceError {
  return Object.assign(new Error(status.details), {
    code: status.code!,
    details: status.details!,
    metadata: status.metadata ?? new grpc.Metadata(),
  });
}

describe("errors on the wire", () => {
  it.each(ERRORS.map((error) => [error.name, error] as const))(
    "%s comes back from a batch's OperationError (through the Pipe codec) as the same class and message",
    (_name, error) => {
      const reply = decodeBatchReply(encodeBatchReply({ results: [{ error: toOperationError(error) }] }));
      const back = fromOperationError(reply.results[0]!.error!);
      expect(back).toBeInstanceOf(error.constructor);
      expect(back.constructor).toBe(error.constructor);
      expect(back.message).toBe(error.message);
      expect(back.code).toBe(error.code);
      expect(back.reason).toBe(error.reason);
    },
  );

  it.each(ERRORS.map((error) => [error.name, error] as const))(
    "%s comes back from a unary call's status and trailers as the same class",
    (_name, error) => {
      const back = fromServiceError(serviceError(toServiceError(error)), "127.0.0.1:1");
      expect(back.constructor).toBe(error.constructor);
      expect(back.cause).toBeInstanceOf(Error);
    },
  );

  it("names the backend a connection failed to, without grpc-js's empty resolution note", () => {
    const refused = fromServiceError(
      serviceError({
        code: grpc.status.UNAVAILABLE,
        details:
          "No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:1. Resolution note: ",
      }),
      "127.0.0.1:1",
    );
    expect(refused).toBeInstanceOf(UnavailableError);
    expect(refused.message).toBe(
      "backend 127.0.0.1:1 unavailable: No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:1.",
    );
    const noted = fromServiceError(
      serviceError({
        code: grpc.status.UNAVAILABLE,
        details: "Name resolution failed. Resolution note: DNS says no",
      }),
      "nowhere:1",
    );
    expect(noted.message).toBe(
      "backend nowhere:1 unavailable: Name resolution failed. Resolution note: DNS says no",
    );
  });

  it("takes the class from the reason, not the message: a reworded message keeps its class", () => {
    const notReady = fromOperationError(
      received({
        code: StatusCode.FAILED_PRECONDITION,
        message: "replica still filling",
        reason: "ERROR_REASON_NOT_READY",
      }),
    );
    expect(notReady).toBeInstanceOf(NotReadyError);
    expect(notReady.message).toBe("replica still filling");
    const full = errorFromStatus(StatusCode.RESOURCE_EXHAUSTED, "no room", {
      reason: "ERROR_REASON_LIST_FULL",
    });
    expect(full).toBeInstanceOf(ListFullError);
  });

  it("carries where a write stood (the replica that failed, the stamp and claim) with any class", () => {
    const stamp = { clock: 2n ** 40n + 3n, writer: "0123456789abcdef", seq: 9 };
    const stale = new StaleEpochError(3n, 4n);
    stale.progress = { replica: "10.0.0.2:7000", stamp, claim: "c1" };
    const refused = new ConnectionRefusedError("connect ECONNREFUSED");
    refused.progress = { replica: "10.0.0.3:7000" };
    for (const error of [stale, refused]) {
      const reply = decodeBatchReply(encodeBatchReply({ results: [{ error: toOperationError(error) }] }));
      const back = fromOperationError(reply.results[0]!.error!);
      expect(back.constructor).toBe(error.constructor);
      expect(back.progress).toEqual(error.progress);
    }
    expect(fromOperationError(received({ code: StatusCode.UNAVAILABLE })).progress).toBeUndefined();
  });

  it("takes a stale view's epochs from their fields, not from the message", () => {
    const stale = fromOperationError(
      received({
        code: StatusCode.FAILED_PRECONDITION,
        message: "your view is old",
        reason: "ERROR_REASON_STALE_VIEW",
        callerEpoch: "7",
        currentEpoch: "12",
      }),
    );
    expect(stale).toBeInstanceOf(StaleEpochError);
    expect((stale as StaleEpochError).callerEpoch).toBe(7n);
    expect((stale as StaleEpochError).currentEpoch).toBe(12n);
  });

  it("gives an error without a reason (an older peer) the plain class of its code, whatever its message says", () => {
    const notReady = errorFromStatus(StatusCode.FAILED_PRECONDITION, "not ready: being filled");
    expect(notReady).not.toBeInstanceOf(NotReadyError);
    expect(notReady.constructor).toBe(BinringError);
    expect(notReady.code).toBe(StatusCode.FAILED_PRECONDITION);
    const stale = errorFromStatus(
      StatusCode.FAILED_PRECONDITION,
      "stale view: call made with view epoch 1 but the backend is at epoch 2; refresh the cluster view",
    );
    expect(stale).not.toBeInstanceOf(StaleEpochError);
    const store = errorFromStatus(StatusCode.UNAVAILABLE, "store unavailable: redis: ECONNREFUSED");
    expect(store.constructor).toBe(UnavailableError);
    const full = errorFromStatus(StatusCode.RESOURCE_EXHAUSTED, "list full: k");
    expect(full.constructor).toBe(ResourceExhaustedError);
    expect(errorFromStatus(2, "unknown").code).toBe(StatusCode.INTERNAL);
  });

  it("ignores a reason it does not know and keeps the code's class", () => {
    const metadata = new grpc.Metadata();
    metadata.set("binring-reason", "ERROR_REASON_FROM_THE_FUTURE");
    const error = fromServiceError(
      serviceError({ code: StatusCode.INVALID_ARGUMENT, details: "bad key", metadata }),
      "127.0.0.1:1",
    );
    expect(error.constructor).toBe(InvalidArgumentError);
  });

  it("keeps the cause of a wrapped error", () => {
    const cause = new Error("ECONNRESET");
    expect(new StoreUnavailableError("redis: ECONNRESET", { cause }).cause).toBe(cause);
    expect(new StoreUnavailableError("redis: ECONNRESET").message).toBe(
      "store unavailable: redis: ECONNRESET",
    );
  });
});
