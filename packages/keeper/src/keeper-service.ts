// The Keeper gRPC service: the cluster view for clients, status for operators.
import { type BackendState, bigintToWire, loadProtocol } from "@binring/core";
import type * as grpc from "@grpc/grpc-js";
import type { Keeper } from "./keeper.js";

const STATE_TO_WIRE: Record<string, BackendState> = {
  unknown: "BACKEND_STATE_UNKNOWN",
  ready: "BACKEND_STATE_READY",
  suspect: "BACKEND_STATE_SUSPECT",
  dead: "BACKEND_STATE_DEAD",
  filling: "BACKEND_STATE_FILLING",
};

export function addKeeperService(server: grpc.Server, keeper: Keeper): void {
  server.addService(loadProtocol().Keeper.service, {
    GetView: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => {
      const view = keeper.view();
      callback(null, {
        epoch: bigintToWire(view.epoch),
        backends: view.backends.map(({ address, state }) => ({ address, state: STATE_TO_WIRE[state] })),
      });
    },
    Status: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => {
      callback(null, { json: JSON.stringify(keeper.status()) });
    },
  });
}
