// The keeper's gRPC services: the cluster view for clients and status for
// operators (Keeper), membership changes for operators (KeeperAdmin), and the
// beats between keepers (KeeperPeer).
import {
  bigintToWire,
  type KeeperAdminHandlers,
  type KeeperHandlers,
  type KeeperPeerHandlers,
  loadProtocol,
  memberStatusToWire,
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
        backends: view.backends.map(({ address, state, repairing, zone, leaving }) => ({
          address,
          state: STATE_TO_WIRE[state],
          repairing,
          zone,
          leaving,
        })),
      });
    },
    Status: (_call, callback) => {
      callback(null, statusToWire(keeper.status()));
    },
  };
  const adminHandlers: KeeperAdminHandlers = {
    AddBackend: (call, callback) => {
      const request: unknown = call.request;
      if (request instanceof Undecodable) return callback(toServiceError(request.error));
      keeper.addBackend(call.request.address, call.request.zone).then(
        (outcome) => callback(null, { changed: outcome.changed, status: memberStatusToWire(outcome.status) }),
        (error: unknown) => callback(toServiceError(error)),
      );
    },
    RemoveBackend: (call, callback) => {
      const request: unknown = call.request;
      if (request instanceof Undecodable) return callback(toServiceError(request.error));
      keeper.removeBackend(call.request.address).then(
        (outcome) => callback(null, { changed: outcome.changed, status: memberStatusToWire(outcome.status) }),
        (error: unknown) => callback(toServiceError(error)),
      );
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
  server.addService(withTolerantDecoding(loadProtocol().KeeperAdmin.service), adminHandlers);
  server.addService(withTolerantDecoding(loadProtocol().KeeperPeer.service), peerHandlers);
}
