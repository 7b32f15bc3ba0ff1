// Size limits on keys, values, patterns and bin names, and their validation.
// Every check names the field, its size and the limit, so a caller can fix it.
import { InvalidArgumentError } from "./errors.js";

export interface Limits {
  /** Largest key, bin name or pattern, in UTF-8 bytes. @default 4096 */
  maxKeyBytes: number;
  /** Largest value, in UTF-8 bytes. @default 1048576 */
  maxValueBytes: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxKeyBytes: 4096,
  maxValueBytes: 1024 * 1024,
});

/** The largest a backend may be configured to take: a key or value past these could not travel. */
export const LIMIT_CEILINGS: Readonly<Limits> = Object.freeze({
  maxKeyBytes: 64 * 1024,
  maxValueBytes: 8 * 1024 * 1024,
});

// Sizes are bytes end to end (docs/HAZARDS.md 13). Every message binring
// sends is split, or refused, well under the transport's cap.

/** gRPC's cap on one message, set on every server and channel. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** What one batch, reply part or copy message is filled up to; one item larger than this travels alone. */
export const MESSAGE_BUDGET_BYTES = 4 * 1024 * 1024;
/** The largest single result a backend sends: one list, or one keys/listKeys reply. */
export const MAX_RESULT_BYTES = 32 * 1024 * 1024;
/** Entries in one streamed Scan message at most, whatever the caller asks for. */
export const MAX_SCAN_BATCH = 10_000;
/** Operations in one Batch or Pipe message, whatever their size. */
export const MAX_OPERATIONS_PER_MESSAGE = 1024;

/**
 * What a client checks before sending: a key or value past the ceilings no
 * backend may be configured to take is refused at once (each backend then
 * checks its own, smaller, limits).
 */
export function checkTransportable(key: string, value: string): void {
  checkString("key", key, LIMIT_CEILINGS.maxKeyBytes);
  checkString("value", value, LIMIT_CEILINGS.maxValueBytes);
}

/** Fills unset fields with defaults and rejects nonsense. */
export function parseLimits(partial: Partial<Limits> = {}): Limits {
  const limits = { ...DEFAULT_LIMITS, ...partial };
  for (const field of ["maxKeyBytes", "maxValueBytes"] as const) {
    const value = limits[field];
    if (!Number.isSafeInteger(value) || value < 1 || value > LIMIT_CEILINGS[field]) {
      throw new InvalidArgumentError(
        `${field} must be an integer from 1 to ${LIMIT_CEILINGS[field]}, got ${String(value)}`,
      );
    }
  }
  return limits;
}

/**
 * An upper bound on a string's UTF-8 size, cheap for short strings (a UTF-16
 * code unit never takes more than 3 bytes) and exact for long ones.
 */
export function utf8Bound(value: string): number {
  return value.length < 4096 ? value.length * 3 : Buffer.byteLength(value, "utf8");
}

/** Throws unless value is a string of at most maxBytes UTF-8 bytes. */
export function checkString(field: string, value: unknown, maxBytes: number): string {
  if (typeof value !== "string") {
    throw new InvalidArgumentError(`${field} must be a string, got ${typeof value}`);
  }
  // A UTF-16 string never takes more than 3 UTF-8 bytes per code unit: skip the count when it cannot matter.
  if (value.length * 3 > maxBytes) {
    const bytes = Buffer.byteLength(value, "utf8");
    if (bytes > maxBytes) {
      throw new InvalidArgumentError(`${field} is ${bytes} bytes, over the limit of ${maxBytes} bytes`);
    }
  }
  if (hasLoneSurrogate(value)) {
    throw new InvalidArgumentError(`${field} is not valid Unicode (it holds a lone surrogate)`);
  }
  return value;
}

// Lone surrogates cannot be encoded as UTF-8; storing one would silently change the value.
function hasLoneSurrogate(value: string): boolean {
  return !value.isWellFormed();
}
