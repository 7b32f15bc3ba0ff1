// The keeper's gRPC services: the cluster view for clients and status for
// operators (Keeper), membership changes for operators (KeeperAdmin), and the
// beats between keepers (KeeperPeer).
import {
  bigintToWire,
  type KeeperAdminHandlers,
  type KeeperHandlers,
  type KeeperPeerHandlers,
  loadProtocol,
  type MembershipReply,
  memberStatusToWire,
  toServiceError,
  UnavailableError,
  Undecodable,
  withTolerantDecoding,
} from "@binring/core";
import type * as grpc from "@grpc/grpc-js";
import type { Keeper } from "./keeper.js";
import type { MembershipOutcome } from "./membership-changes.js";
import { statusToWire } from "./status-message.js";
import { STATE_TO_WIRE } from "./wire-states.js";

export function addKeeperService(server: grpc.Server, keeper: Keeper): void {
  const handlers: KeeperHandlers = {
    GetView: (_call, callback) => {
      // Off the keeper ring its view is not kept current: clients ask another keeper.
      if (keeper.ringStatus === "off-ring") {
        return callback(
          toServiceError(
            new UnavailableError(`keeper ${keeper.self} is on no keeper ring: it serves no view until added`),
          ),
        );
      }
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
        keepers: keeper.keepers(),
      });
    },
    Status: (_call, callback) => {
      callback(null, statusToWire(keeper.status()));
    },
  };
  const adminHandlers: KeeperAdminHandlers = {
    AddBackend: membershipCall((request) => keeper.addBackend(request.address, request.zone)),
    RemoveBackend: membershipCall((request) => keeper.removeBackend(request.address)),
    AddKeeper: membershipCall((request) => keeper.addKeeper(request.address)),
    RemoveKeeper: membershipCall((request) => keeper.removeKeeper(request.address)),
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

/** A membership change's handler: the outcome, or the refusal as a gRPC status. */
function membershipCall<Request>(
  change: (request: Request) => Promise<MembershipOutcome>,
): grpc.handleUnaryCall<Request, MembershipReply> {
  return (call, callback) => {
    const request: unknown = call.request;
    if (request instanceof Undecodable) return callback(toServiceError(request.error));
    change(call.request).then(
      (outcome) => callback(null, { changed: outcome.changed, status: memberStatusToWire(outcome.status) }),
      (error: unknown) => callback(toServiceError(error)),
    );
  };
}
