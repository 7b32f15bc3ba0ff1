// Whether anything listens on an address right now. A gRPC channel in
// reconnect backoff repeats the error of its last attempt, so "connection
// refused" from a call may describe the past; a fresh TCP connect tells the present.
import { connect } from "node:net";
import { parseHostPort } from "@binring/core";

/** Resolves true only when a new connection is actively refused; a timeout (a paused process) is not a refusal. */
export function refusesConnections(address: string, timeoutMs = 300): Promise<boolean> {
  const at = parseHostPort(address);
  if (!at) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = connect(at);
    const finish = (refused: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(refused);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.once("connect", () => finish(false));
    socket.once("error", (error: NodeJS.ErrnoException) => finish(error.code === "ECONNREFUSED"));
  });
}
