// The Keeper gRPC service: the cluster view for clients, status for operators.
import { type BackendState, bigintToWire, type KeeperHandlers, loadProtocol } from "@binring/core";
import type * as grpc from "@grpc/grpc-js";
import type { HealthState } from "./backend-health.js";
import type { Keeper } from "./keeper.js";

const STATE_TO_WIRE: Record<HealthState, BackendState> = {
  unknown: "BACKEND_STATE_UNKNOWN",
  ready: "BACKEND_STATE_READY",
  suspect: "BACKEND_STATE_SUSPECT",
  dead: "BACKEND_STATE_DEAD",
  filling: "BACKEND_STATE_FILLING",
};

export function addKeeperService(server: grpc.Server, keeper: Keeper): void {
  const handlers: KeeperHandlers = {
    GetView: (_call, callback) => {
      const view = keeper.view();
      callback(null, {
        epoch: bigintToWire(view.epoch),
        backends: view.backends.map(({ address, state }) => ({ address, state: STATE_TO_WIRE[state] })),
      });
    },
    Status: (_call, callback) => {
      callback(null, { json: JSON.stringify(keeper.status()) });
    },
  };
  server.addService(loadProtocol().Keeper.service, handlers);
}
