// Original file: packages/core/proto/binring/v1/storage.proto

/**
 * Why a call failed, beside its status code: it tells apart the errors that
 * share a code, so a caller acts on it without reading the message (which is
 * for people and may be reworded). A unary call carries it as trailing
 * metadata `binring-reason` (the name below), with `binring-caller-epoch` and
 * `binring-current-epoch` for STALE_VIEW. UNSPECIFIED (an older peer, or an
 * error of no reason of its own) means: act on the code alone.
 */
export const ErrorReason = {
  ERROR_REASON_UNSPECIFIED: 'ERROR_REASON_UNSPECIFIED',
  /**
   * a key, value, pattern or option is malformed or over its limit
   */
  ERROR_REASON_INVALID_ARGUMENT: 'ERROR_REASON_INVALID_ARGUMENT',
  /**
   * a clock would pass its ceiling
   */
  ERROR_REASON_OUT_OF_RANGE: 'ERROR_REASON_OUT_OF_RANGE',
  /**
   * the store is busy or out of memory: the call did nothing
   */
  ERROR_REASON_RESOURCE_EXHAUSTED: 'ERROR_REASON_RESOURCE_EXHAUSTED',
  /**
   * an append would take a list past its size limit
   */
  ERROR_REASON_LIST_FULL: 'ERROR_REASON_LIST_FULL',
  /**
   * one result is larger than a reply may carry
   */
  ERROR_REASON_REPLY_TOO_LARGE: 'ERROR_REASON_REPLY_TOO_LARGE',
  /**
   * the backend may be missing entries: read another replica
   */
  ERROR_REASON_NOT_READY: 'ERROR_REASON_NOT_READY',
  /**
   * the caller's cluster view is older than the backend's (epochs in OperationError)
   */
  ERROR_REASON_STALE_VIEW: 'ERROR_REASON_STALE_VIEW',
  /**
   * the backend's clock is far behind the stamp it was asked to store
   */
  ERROR_REASON_CLOCK_BEHIND: 'ERROR_REASON_CLOCK_BEHIND',
  /**
   * the backend cannot serve the call right now
   */
  ERROR_REASON_UNAVAILABLE: 'ERROR_REASON_UNAVAILABLE',
  /**
   * the backend's store (its Redis) failed: the backend serves no reads until refilled
   */
  ERROR_REASON_STORE_UNAVAILABLE: 'ERROR_REASON_STORE_UNAVAILABLE',
  /**
   * the call did not complete in time
   */
  ERROR_REASON_TIMEOUT: 'ERROR_REASON_TIMEOUT',
  /**
   * a connection to the backend was refused (reported by a coordinator about
   * a replica; the caller confirms it with a connection of its own)
   */
  ERROR_REASON_CONNECTION_REFUSED: 'ERROR_REASON_CONNECTION_REFUSED',
  /**
   * an entry of a write attempt that a newer attempt of the same write
   * claimed: this attempt is over, the newer one carries the write
   */
  ERROR_REASON_SUPERSEDED_ATTEMPT: 'ERROR_REASON_SUPERSEDED_ATTEMPT',
  /**
   * some replicas took the write, then one refused it for good: it may or may
   * not take effect
   */
  ERROR_REASON_OUTCOME_UNKNOWN: 'ERROR_REASON_OUTCOME_UNKNOWN',
  /**
   * a heartbeat called the backend at a member address while it is already
   * another member (HeartbeatRequest.member)
   */
  ERROR_REASON_ANOTHER_MEMBER: 'ERROR_REASON_ANOTHER_MEMBER',
} as const;

/**
 * Why a call failed, beside its status code: it tells apart the errors that
 * share a code, so a caller acts on it without reading the message (which is
 * for people and may be reworded). A unary call carries it as trailing
 * metadata `binring-reason` (the name below), with `binring-caller-epoch` and
 * `binring-current-epoch` for STALE_VIEW. UNSPECIFIED (an older peer, or an
 * error of no reason of its own) means: act on the code alone.
 */
export type ErrorReason =
  | 'ERROR_REASON_UNSPECIFIED'
  | 0
  /**
   * a key, value, pattern or option is malformed or over its limit
   */
  | 'ERROR_REASON_INVALID_ARGUMENT'
  | 1
  /**
   * a clock would pass its ceiling
   */
  | 'ERROR_REASON_OUT_OF_RANGE'
  | 2
  /**
   * the store is busy or out of memory: the call did nothing
   */
  | 'ERROR_REASON_RESOURCE_EXHAUSTED'
  | 3
  /**
   * an append would take a list past its size limit
   */
  | 'ERROR_REASON_LIST_FULL'
  | 4
  /**
   * one result is larger than a reply may carry
   */
  | 'ERROR_REASON_REPLY_TOO_LARGE'
  | 5
  /**
   * the backend may be missing entries: read another replica
   */
  | 'ERROR_REASON_NOT_READY'
  | 6
  /**
   * the caller's cluster view is older than the backend's (epochs in OperationError)
   */
  | 'ERROR_REASON_STALE_VIEW'
  | 7
  /**
   * the backend's clock is far behind the stamp it was asked to store
   */
  | 'ERROR_REASON_CLOCK_BEHIND'
  | 8
  /**
   * the backend cannot serve the call right now
   */
  | 'ERROR_REASON_UNAVAILABLE'
  | 9
  /**
   * the backend's store (its Redis) failed: the backend serves no reads until refilled
   */
  | 'ERROR_REASON_STORE_UNAVAILABLE'
  | 10
  /**
   * the call did not complete in time
   */
  | 'ERROR_REASON_TIMEOUT'
  | 11
  /**
   * a connection to the backend was refused (reported by a coordinator about
   * a replica; the caller confirms it with a connection of its own)
   */
  | 'ERROR_REASON_CONNECTION_REFUSED'
  | 12
  /**
   * an entry of a write attempt that a newer attempt of the same write
   * claimed: this attempt is over, the newer one carries the write
   */
  | 'ERROR_REASON_SUPERSEDED_ATTEMPT'
  | 13
  /**
   * some replicas took the write, then one refused it for good: it may or may
   * not take effect
   */
  | 'ERROR_REASON_OUTCOME_UNKNOWN'
  | 14
  /**
   * a heartbeat called the backend at a member address while it is already
   * another member (HeartbeatRequest.member)
   */
  | 'ERROR_REASON_ANOTHER_MEMBER'
  | 15

/**
 * Why a call failed, beside its status code: it tells apart the errors that
 * share a code, so a caller acts on it without reading the message (which is
 * for people and may be reworded). A unary call carries it as trailing
 * metadata `binring-reason` (the name below), with `binring-caller-epoch` and
 * `binring-current-epoch` for STALE_VIEW. UNSPECIFIED (an older peer, or an
 * error of no reason of its own) means: act on the code alone.
 */
export type ErrorReason__Output = typeof ErrorReason[keyof typeof ErrorReason]
