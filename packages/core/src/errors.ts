// The error family every binring package throws. Each class maps to one gRPC
// status code, so an error crosses the wire and comes back as the same class.

/** gRPC status codes used by binring (the numbers are fixed by gRPC). */
export const StatusCode = {
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  OUT_OF_RANGE: 11,
  INTERNAL: 13,
  UNAVAILABLE: 14,
} as const;
export type StatusCodeValue = (typeof StatusCode)[keyof typeof StatusCode];

/** Base class: `code` is the gRPC status the error travels as. */
export class BinringError extends Error {
  constructor(
    message: string,
    readonly code: StatusCodeValue,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Thrown when a key, value, pattern, bin name or option is malformed or over its limit. Retrying will not help. */
export class InvalidArgumentError extends BinringError {
  constructor(message: string) {
    super(message, StatusCode.INVALID_ARGUMENT);
  }
}

/** Thrown when a backend (or its Redis) cannot be reached right now. Safe to retry elsewhere or later. */
export class UnavailableError extends BinringError {
  constructor(message: string) {
    super(message, StatusCode.UNAVAILABLE);
  }
}

/** Thrown when a call did not complete within its time budget. A write may or may not have been applied. */
export class TimeoutError extends BinringError {
  constructor(message: string) {
    super(message, StatusCode.DEADLINE_EXCEEDED);
  }
}

/**
 * Thrown when a call would take more than there is: the store is busy (a
 * script runs) or out of memory, or a list would pass its size limit. The
 * store did nothing for the refused entry; retry later, or free space first.
 */
export class ResourceExhaustedError extends BinringError {
  constructor(message: string) {
    super(message, StatusCode.RESOURCE_EXHAUSTED);
  }
}

/**
 * Thrown when an append would take a list past its size limit. Retrying will
 * not help until elements are removed, so a writer gives up at once.
 */
export class ListFullError extends ResourceExhaustedError {
  static readonly prefix = "list full:";
  constructor(message: string) {
    super(`${ListFullError.prefix} ${message}`);
  }
}

/**
 * Thrown when one result (a list, a keys reply) is larger than a reply may
 * carry. Retrying will not help: narrow the request (a key prefix).
 */
export class ReplyTooLargeError extends ResourceExhaustedError {
  static readonly prefix = "reply too large:";
  constructor(message: string) {
    super(`${ReplyTooLargeError.prefix} ${message}`);
  }
}

/** Thrown when a clock cannot move on: it would reach its ceiling (core/value-bounds.ts). */
export class OutOfRangeError extends BinringError {
  constructor(message: string) {
    super(message, StatusCode.OUT_OF_RANGE);
  }
}

/**
 * Thrown by a backend that may be missing entries (it is being filled, or it
 * restarted and no keeper has vouched for it yet) when asked for a read that
 * must see every acknowledged write. Readers move on to the next replica.
 */
export class NotReadyError extends BinringError {
  static readonly prefix = "not ready:";
  constructor(message: string) {
    super(`${NotReadyError.prefix} ${message}`, StatusCode.FAILED_PRECONDITION);
  }
}

/**
 * Thrown by a backend that knows a newer cluster view than the caller's: the
 * caller must refresh its view and retry, because the replica set it used may
 * be out of date.
 */
export class StaleEpochError extends BinringError {
  static readonly prefix = "stale view:";
  constructor(
    readonly callerEpoch: bigint,
    readonly currentEpoch: bigint,
  ) {
    super(
      `${StaleEpochError.prefix} call made with view epoch ${callerEpoch} but the backend is at epoch ${currentEpoch}; refresh the cluster view`,
      StatusCode.FAILED_PRECONDITION,
    );
  }
}

/**
 * Thrown by a backend whose clock is far (over 2^32) behind a stamp it is
 * asked to store: it has just restarted on an empty store and the keepers'
 * clock sync has not reached it yet (within about a second). The write fails
 * at once, of unknown outcome if another replica took it; a later one succeeds
 * (core/value-bounds.ts).
 */
export class ClockBehindError extends BinringError {
  static readonly prefix = "clock behind:";
  constructor(message: string) {
    super(`${ClockBehindError.prefix} ${message}`, StatusCode.FAILED_PRECONDITION);
  }
}

/**
 * Thrown by the SDK when a write was refused for good by one replica after
 * others had already taken it (a list at its limit on one replica only, say):
 * the write may or may not take effect, as after a timeout.
 */
export class OutcomeUnknownError extends TimeoutError {}

/** The classes whose message starts with a prefix of their own, by the status they travel as. */
type Prefixed = { prefix: string; new (message: string): BinringError };
const PREFIXED: Readonly<Record<number, readonly Prefixed[]>> = {
  [StatusCode.RESOURCE_EXHAUSTED]: [ListFullError, ReplyTooLargeError],
  [StatusCode.FAILED_PRECONDITION]: [ClockBehindError, NotReadyError],
};

/** Rebuilds the error class from a status code and message that crossed the wire. */
export function errorFromStatus(code: number, message: string): BinringError {
  const prefixed = PREFIXED[code]?.find((kind) => message.startsWith(kind.prefix));
  if (prefixed) return new prefixed(message.slice(prefixed.prefix.length).trimStart());
  switch (code) {
    case StatusCode.INVALID_ARGUMENT:
      return new InvalidArgumentError(message);
    case StatusCode.DEADLINE_EXCEEDED:
      return new TimeoutError(message);
    case StatusCode.RESOURCE_EXHAUSTED:
      return new ResourceExhaustedError(message);
    case StatusCode.OUT_OF_RANGE:
      return new OutOfRangeError(message);
    case StatusCode.FAILED_PRECONDITION: {
      const stale = /epoch (\d+) but the backend is at epoch (\d+)/.exec(message);
      if (message.startsWith(StaleEpochError.prefix) && stale) {
        return new StaleEpochError(BigInt(stale[1]!), BigInt(stale[2]!));
      }
      return new BinringError(message, StatusCode.FAILED_PRECONDITION);
    }
    case StatusCode.UNAVAILABLE:
      return new UnavailableError(message);
    default:
      return new BinringError(message, StatusCode.INTERNAL);
  }
}
