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

/** Fills unset fields with defaults and rejects nonsense. */
export function parseLimits(partial: Partial<Limits> = {}): Limits {
  const limits = { ...DEFAULT_LIMITS, ...partial };
  for (const field of ["maxKeyBytes", "maxValueBytes"] as const) {
    const value = limits[field];
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new InvalidArgumentError(`${field} must be a positive integer, got ${String(value)}`);
    }
  }
  return limits;
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
