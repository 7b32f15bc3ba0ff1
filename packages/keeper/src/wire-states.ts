// Backend health states as the keeper protocol carries them: the SDK's
// mapping (keeper-status-client.ts), read backwards for peers' beats.
import { HEALTH_TO_WIRE } from "@binring/client";
import type { BackendState } from "@binring/core";
import type { HealthState } from "./backend-health.js";

export const STATE_TO_WIRE: Readonly<Record<HealthState, BackendState>> = HEALTH_TO_WIRE;

export const WIRE_TO_STATE: ReadonlyMap<BackendState, HealthState> = new Map(
  Object.entries(STATE_TO_WIRE).map(([state, wire]) => [wire, state as HealthState]),
);
