// The error family every binring package throws. Each class maps to one gRPC
// status code and one reason (storage.proto ErrorReason), so an error crosses
// the wire and comes back as the same class, whatever its message says.
import type { ErrorReason__Output as ErrorReason } from "./generated/binring/v1/ErrorReason.js";
import type { Stamp } from "./stamp-type.js";

/** gRPC status codes used by binring (the numbers are fixed by gRPC). */
export const StatusCode = {
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  INTERNAL: 13,
  UNAVAILABLE: 14,
} as const;
export type StatusCodeValue = (typeof StatusCode)[keyof typeof StatusCode];

/**
 * Where a replicated write stood when its coordinator gave up on an attempt
 * (OperationError.replica, .stamp, .claim): the replica whose call failed, and
 * the stamp and claim the write had by then, which its next attempt keeps.
 */
export interface WriteProgress {
  /** The replica's address as the write listed it; the coordinator's own when it failed itself. */
  replica: string;
  stamp?: Stamp;
  claim?: string;
}

/** Base class: `code` is the gRPC status the error travels as, `reason` what tells it apart from others of that code. */
export class BinringError extends Error {
  /** The reason every error of this class travels with; UNSPECIFIED where the code alone tells the class. */
  static readonly reason: ErrorReason = "ERROR_REASON_UNSPECIFIED";

  /** Set when a write's coordinator reports this failure of one of its replicas (see WriteProgress). */
  progress: WriteProgress | undefined;

  constructor(
    message: string,
    readonly code: StatusCodeValue,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }

  /** Why the call failed, as it travels beside the code: its class's reason. */
  get reason(): ErrorReason {
    return (this.constructor as typeof BinringError).reason;
  }
}

/** Thrown when a key, value, pattern, bin name or option is malformed or over its limit. Retrying will not help. */
export class InvalidArgumentError extends BinringError {
  static override readonly reason: ErrorReason = "ERROR_REASON_INVALID_ARGUMENT";
  constructor(message: string, options?: ErrorOptions) {
    super(message, StatusCode.INVALID_ARGUMENT, options);
  }
}

/**
 * The caller's certificate does not carry a role allowed to make the call (a
 * client calling a keeper-only call). Retrying will not help.
 */
export class PermissionDeniedError extends BinringError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, StatusCode.PERMISSION_DENIED, options);
  }
}

/** Thrown when a backend cannot be reached or cannot serve right now. Safe to retry elsewhere or later. */
export class UnavailableError extends BinringError {
  static override readonly reason: ErrorReason = "ERROR_REASON_UNAVAILABLE";
  constructor(message: string, options?: ErrorOptions) {
    super(message, StatusCode.UNAVAILABLE, options);
  }
}

/**
 * Thrown by a backend whose store (its Redis) failed a call or cannot be
 * reached: the backend revokes its own readiness, so it serves no reads until
 * a keeper has refilled it, and a write may skip it.
 */
export class StoreUnavailableError extends UnavailableError {
  static override readonly reason: ErrorReason = "ERROR_REASON_STORE_UNAVAILABLE";
  static readonly prefix = "store unavailable:";
  constructor(message: string, options?: ErrorOptions) {
    super(`${StoreUnavailableError.prefix} ${message}`, options);
  }
}

/**
 * A connection to a backend was refused: nothing may listen on its port.
 * Raised where the connection was tried (the SDK, or a write's coordinator,
 * which reports it about the replica). A channel in reconnect backoff repeats
 * its last attempt's error, so a caller confirms the refusal with a fresh
 * connection of its own before counting the backend as gone.
 */
export class ConnectionRefusedError extends UnavailableError {
  static override readonly reason: ErrorReason = "ERROR_REASON_CONNECTION_REFUSED";
}

/** Thrown when a call did not complete within its time budget. A write may or may not have been applied. */
export class TimeoutError extends BinringError {
  static override readonly reason: ErrorReason = "ERROR_REASON_TIMEOUT";
  constructor(message: string, options?: ErrorOptions) {
    super(message, StatusCode.DEADLINE_EXCEEDED, options);
  }
}

/**
 * Thrown when a call would take more than there is: the store is busy (a
 * script runs) or out of memory, or a list would pass its size limit. The
 * store did nothing for the refused entry; retry later, or free space first.
 */
export class ResourceExhaustedError extends BinringError {
  static override readonly reason: ErrorReason = "ERROR_REASON_RESOURCE_EXHAUSTED";
  constructor(message: string, options?: ErrorOptions) {
    super(message, StatusCode.RESOURCE_EXHAUSTED, options);
  }
}

/**
 * Thrown when an append would take a list past its size limit. Retrying will
 * not help until elements are removed, so a writer gives up at once.
 */
export class ListFullError extends ResourceExhaustedError {
  static override readonly reason: ErrorReason = "ERROR_REASON_LIST_FULL";
  static readonly prefix = "list full:";
  constructor(message: string, options?: ErrorOptions) {
    super(`${ListFullError.prefix} ${message}`, options);
  }
}

/**
 * Thrown when one result (a list, a keys reply) is larger than a reply may
 * carry. Retrying will not help: narrow the request (a key prefix).
 */
export class ReplyTooLargeError extends ResourceExhaustedError {
  static override readonly reason: ErrorReason = "ERROR_REASON_REPLY_TOO_LARGE";
  static readonly prefix = "reply too large:";
  constructor(message: string, options?: ErrorOptions) {
    super(`${ReplyTooLargeError.prefix} ${message}`, options);
  }
}

/** Thrown when a clock cannot move on: it would reach its ceiling (core/value-bounds.ts). */
export class OutOfRangeError extends BinringError {
  static override readonly reason: ErrorReason = "ERROR_REASON_OUT_OF_RANGE";
  constructor(message: string, options?: ErrorOptions) {
    super(message, StatusCode.OUT_OF_RANGE, options);
  }
}

/**
 * Thrown by a backend that may be missing entries (it is being filled, or it
 * restarted and no keeper has vouched for it yet) when asked for a read that
 * must see every acknowledged write. Readers move on to the next replica.
 */
export class NotReadyError extends BinringError {
  static override readonly reason: ErrorReason = "ERROR_REASON_NOT_READY";
  static readonly prefix = "not ready:";
  constructor(message: string, options?: ErrorOptions) {
    super(`${NotReadyError.prefix} ${message}`, StatusCode.FAILED_PRECONDITION, options);
  }
}

/**
 * Thrown by a backend that knows a newer cluster view than the caller's: the
 * caller must refresh its view and retry, because the replica set it used may
 * be out of date. Both epochs travel as fields of their own (OperationError,
 * or trailing metadata), never read back from the message.
 */
export class StaleEpochError extends BinringError {
  static override readonly reason: ErrorReason = "ERROR_REASON_STALE_VIEW";
  static readonly prefix = "stale view:";
  constructor(
    readonly callerEpoch: bigint,
    readonly currentEpoch: bigint,
    options?: ErrorOptions,
  ) {
    super(
      `${StaleEpochError.prefix} call made with view epoch ${callerEpoch} but the backend is at epoch ${currentEpoch}; refresh the cluster view`,
      StatusCode.FAILED_PRECONDITION,
      options,
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
  static override readonly reason: ErrorReason = "ERROR_REASON_CLOCK_BEHIND";
  static readonly prefix = "clock behind:";
  constructor(message: string, options?: ErrorOptions) {
    super(`${ClockBehindError.prefix} ${message}`, StatusCode.FAILED_PRECONDITION, options);
  }
}

/**
 * Thrown when a write was refused for good by one replica after others had
 * already taken it (a list at its limit on one replica only, say): the write
 * may or may not take effect, as after a timeout. Retrying will not help.
 */
export class OutcomeUnknownError extends TimeoutError {
  static override readonly reason: ErrorReason = "ERROR_REASON_OUTCOME_UNKNOWN";
}

/**
 * Refuses an entry of a write attempt that a newer attempt of the same write
 * has claimed (storage.proto ClaimRequest): the newer attempt carries the
 * write, so this one must stop instead of landing a second stamp for it.
 */
export class SupersededAttemptError extends BinringError {
  static override readonly reason: ErrorReason = "ERROR_REASON_SUPERSEDED_ATTEMPT";
  constructor(message: string, options?: ErrorOptions) {
    super(message, StatusCode.ABORTED, options);
  }
}

/**
 * Refuses a keeper's heartbeat that calls a backend at a member address while
 * the backend is already another member (a host name and its IP reaching one
 * process): one process on the ring twice would hold two copies of a bin.
 */
export class AnotherMemberError extends BinringError {
  static override readonly reason: ErrorReason = "ERROR_REASON_ANOTHER_MEMBER";
  constructor(message: string, options?: ErrorOptions) {
    super(message, StatusCode.FAILED_PRECONDITION, options);
  }
}

/** What travels beside a status code and message: the reason, a stale view's epochs, a write's progress. */
export interface ErrorDetails {
  reason?: ErrorReason;
  callerEpoch?: bigint;
  currentEpoch?: bigint;
  progress?: WriteProgress;
}

/** The details an error travels with. */
export function errorDetails(error: BinringError): ErrorDetails {
  const { reason, progress } = error;
  if (error instanceof StaleEpochError) {
    return { reason, callerEpoch: error.callerEpoch, currentEpoch: error.currentEpoch, progress };
  }
  return { reason, progress };
}

/** A class of the family, whatever its constructor takes. */
type ErrorClass = (abstract new (...args: never[]) => BinringError) & { readonly reason: ErrorReason };

/** The class each reason stands for; a stale view is rebuilt with its epochs instead. */
const BY_REASON: ReadonlyMap<ErrorReason, ErrorClass> = new Map(
  [
    InvalidArgumentError,
    OutOfRangeError,
    ResourceExhaustedError,
    ListFullError,
    ReplyTooLargeError,
    NotReadyError,
    ClockBehindError,
    UnavailableError,
    StoreUnavailableError,
    ConnectionRefusedError,
    TimeoutError,
    OutcomeUnknownError,
    SupersededAttemptError,
    AnotherMemberError,
  ].map((kind): [ErrorReason, ErrorClass] => [kind.reason, kind]),
);

/** The class an error of no known reason gets from its code alone (a peer from before reasons). */
const BY_CODE: Readonly<Record<number, ErrorClass>> = {
  [StatusCode.INVALID_ARGUMENT]: InvalidArgumentError,
  [StatusCode.DEADLINE_EXCEEDED]: TimeoutError,
  [StatusCode.PERMISSION_DENIED]: PermissionDeniedError,
  [StatusCode.RESOURCE_EXHAUSTED]: ResourceExhaustedError,
  [StatusCode.OUT_OF_RANGE]: OutOfRangeError,
  [StatusCode.UNAVAILABLE]: UnavailableError,
};

const KNOWN_CODES: ReadonlySet<number> = new Set(Object.values(StatusCode));

/** Whether a string that crossed the wire names a reason this version knows. */
export function isErrorReason(value: unknown): value is ErrorReason {
  return (
    typeof value === "string" && (BY_REASON.has(value as ErrorReason) || value === StaleEpochError.reason)
  );
}

/**
 * Rebuilds the error class from a status code and the reason that crossed the
 * wire with it, never from the message, which is kept as it came. Without a
 * known reason the class follows from the code.
 */
export function errorFromStatus(
  code: number,
  message: string,
  details: ErrorDetails = {},
  options?: ErrorOptions,
): BinringError {
  const { reason, callerEpoch, currentEpoch, progress } = details;
  let error: BinringError;
  if (reason === StaleEpochError.reason && callerEpoch !== undefined && currentEpoch !== undefined) {
    error = new StaleEpochError(callerEpoch, currentEpoch, options);
  } else {
    const status = KNOWN_CODES.has(code) ? (code as StatusCodeValue) : StatusCode.INTERNAL;
    const kind =
      (reason !== undefined ? BY_REASON.get(reason) : undefined) ?? BY_CODE[status] ?? BinringError;
    // Only the base constructor runs: a class's own would put its prefix
    // before a message that already has it. The base sets every instance
    // field (code, name); the reason comes with the class.
    error = Reflect.construct(BinringError, [message, status, options], kind) as BinringError;
  }
  error.progress = progress;
  return error;
}
