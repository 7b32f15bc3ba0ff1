// Backend health states as the keeper protocol carries them.
import type { BackendState } from "@binring/core";
import type { HealthState } from "./backend-health.js";

export const STATE_TO_WIRE: Record<HealthState, BackendState> = {
  unknown: "BACKEND_STATE_UNKNOWN",
  ready: "BACKEND_STATE_READY",
  suspect: "BACKEND_STATE_SUSPECT",
  dead: "BACKEND_STATE_DEAD",
  filling: "BACKEND_STATE_FILLING",
};

export const WIRE_TO_STATE: ReadonlyMap<BackendState, HealthState> = new Map(
  Object.entries(STATE_TO_WIRE).map(([state, wire]) => [wire, state as HealthState]),
);
