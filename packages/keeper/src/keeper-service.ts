// The Keeper gRPC service: the cluster view for clients, status for operators, beats between keepers.
import { bigintToWire, type KeeperHandlers, loadProtocol } from "@binring/core";
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
    Beat: (call, callback) => {
      callback(null, keeper.onBeat(call.request));
    },
  };
  server.addService(loadProtocol().Keeper.service, handlers);
}
