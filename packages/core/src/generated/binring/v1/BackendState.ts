// Original file: packages/core/proto/binring/v1/keeper.proto

export const BackendState = {
  BACKEND_STATE_UNSPECIFIED: 'BACKEND_STATE_UNSPECIFIED',
  /**
   * not probed yet
   */
  BACKEND_STATE_UNKNOWN: 'BACKEND_STATE_UNKNOWN',
  /**
   * answers and holds every entry of its bins
   */
  BACKEND_STATE_READY: 'BACKEND_STATE_READY',
  /**
   * missed heartbeats; still in placement
   */
  BACKEND_STATE_SUSPECT: 'BACKEND_STATE_SUSPECT',
  /**
   * declared dead: out of placement, its bins re-copied elsewhere
   */
  BACKEND_STATE_DEAD: 'BACKEND_STATE_DEAD',
  /**
   * back (or new), in placement for writes, being filled before it is read
   */
  BACKEND_STATE_FILLING: 'BACKEND_STATE_FILLING',
} as const;

export type BackendState =
  | 'BACKEND_STATE_UNSPECIFIED'
  | 0
  /**
   * not probed yet
   */
  | 'BACKEND_STATE_UNKNOWN'
  | 1
  /**
   * answers and holds every entry of its bins
   */
  | 'BACKEND_STATE_READY'
  | 2
  /**
   * missed heartbeats; still in placement
   */
  | 'BACKEND_STATE_SUSPECT'
  | 3
  /**
   * declared dead: out of placement, its bins re-copied elsewhere
   */
  | 'BACKEND_STATE_DEAD'
  | 4
  /**
   * back (or new), in placement for writes, being filled before it is read
   */
  | 'BACKEND_STATE_FILLING'
  | 5

export type BackendState__Output = typeof BackendState[keyof typeof BackendState]
