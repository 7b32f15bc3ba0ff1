// A keeper's Heartbeats stream: each heartbeat runs as soon as it arrives, as
// concurrently as separate calls would, and is answered by its id with its
// reply or the error it failed with; the stream goes on either way. Only a
// message that is not a HeartbeatCall ends it (INVALID_ARGUMENT). Reading
// stops while MAX_HEARTBEATS_IN_FLIGHT run, so a keeper that sends faster than
// the backend answers is held back by HTTP/2 flow control.
import {
  type HeartbeatAnswer,
  type HeartbeatCall__Output,
  type HeartbeatReply,
  type HeartbeatRequest__Output,
  InvalidArgumentError,
  StatusCode,
  toOperationError,
  toServiceError,
  Undecodable,
} from "@binring/core";
import type * as grpc from "@grpc/grpc-js";
import type { Logger } from "pino";

/** gRPC's status code for success, which core's StatusCode (the codes binring errors carry) leaves out. */
const GRPC_OK = 0;

/** Heartbeats one stream may have running; keepers send a few a second. */
export const MAX_HEARTBEATS_IN_FLIGHT = 64;

export type HeartbeatsCall = grpc.ServerDuplexStream<HeartbeatCall__Output | Undecodable, HeartbeatAnswer>;

export function serveHeartbeats(
  call: HeartbeatsCall,
  handle: (request: HeartbeatRequest__Output) => Promise<HeartbeatReply>,
  logger: Logger,
  /** Called once per heartbeat answered, with its gRPC code. */
  answered: (code: number, startedMs: number) => void = () => undefined,
): void {
  let running = 0;
  let callerEnded = false;
  let failed = false;
  const endIfDone = () => {
    if (callerEnded && running === 0 && !call.writableEnded) call.end();
  };
  const answer = (message: HeartbeatAnswer, code: number, startedMs: number) => {
    running--;
    answered(code, startedMs);
    if (!failed && !call.cancelled && !call.writableEnded) call.write(message);
    if (running < MAX_HEARTBEATS_IN_FLIGHT) call.resume();
    endIfDone();
  };
  call.on("data", (message: HeartbeatCall__Output | Undecodable) => {
    if (failed) return;
    if (message instanceof Undecodable) {
      failed = true;
      // An error emitted, not destroy(): grpc-js sends a stream's status only when it ends.
      call.emit("error", toServiceError(message.error));
      return;
    }
    const startedMs = performance.now();
    const { id, heartbeat } = message;
    running++;
    if (running >= MAX_HEARTBEATS_IN_FLIGHT) call.pause();
    const run = heartbeat
      ? handle(heartbeat)
      : Promise.reject(new InvalidArgumentError(`Heartbeats: call ${id} carries no heartbeat`));
    run.then(
      (reply) => answer({ id, reply }, GRPC_OK, startedMs),
      (error: unknown) => {
        const failure = toOperationError(error);
        answer({ id, error: failure }, failure.code ?? StatusCode.INTERNAL, startedMs);
      },
    );
  });
  call.on("end", () => {
    callerEnded = true;
    endIfDone();
  });
  call.on("error", (error) => logger.debug({ err: error }, "heartbeat stream closed by the caller"));
}
