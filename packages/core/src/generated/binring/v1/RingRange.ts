// Original file: packages/core/proto/binring/v1/storage.proto


/**
 * A half-open interval [start, end) of 32-bit ring points; start >= end wraps
 * around zero.
 */
export interface RingRange {
  'start'?: (number);
  'end'?: (number);
}

/**
 * A half-open interval [start, end) of 32-bit ring points; start >= end wraps
 * around zero.
 */
export interface RingRange__Output {
  'start': (number);
  'end': (number);
}
