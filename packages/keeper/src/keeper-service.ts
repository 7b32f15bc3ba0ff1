// The keeper's gRPC services: the cluster view for clients and status for
// operators (Keeper), and the beats between keepers (KeeperPeer).
import {
  bigintToWire,
  type KeeperHandlers,
  type KeeperPeerHandlers,
  loadProtocol,
  toServiceError,
  Undecodable,
  withTolerantDecoding,
} from "@binring/core";
import type * as grpc from "@grpc/grpc-js";
import type { Keeper } from "./keeper.js";
import { statusToWire } from "./status-message.js";
import { STATE_TO_WIRE } from "./wire-states.js";

export function addKeeperService(server: grpc.Server, keeper: Keeper): void {
  const handlers: KeeperHandlers = {
    GetView: (_call, callback) => {
      const view = keeper.view();
      callback(null, {
        epoch: bigintToWire(view.epoch),
        backends: view.backends.map(({ address, state, repairing }) => ({
          address,
          state: STATE_TO_WIRE[state],
          repairing,
        })),
      });
    },
    Status: (_call, callback) => {
      callback(null, statusToWire(keeper.status()));
    },
  };
  const peerHandlers: KeeperPeerHandlers = {
    Beat: (call, callback) => {
      const request: unknown = call.request;
      if (request instanceof Undecodable) return callback(toServiceError(request.error));
      try {
        callback(null, keeper.onBeat(call.request));
      } catch (error) {
        callback(toServiceError(error));
      }
    },
  };
  // GetView and Status take an empty request: bytes that do not decode as one change nothing they answer.
  server.addService(withTolerantDecoding(loadProtocol().Keeper.service), handlers);
  server.addService(withTolerantDecoding(loadProtocol().KeeperPeer.service), peerHandlers);
}
