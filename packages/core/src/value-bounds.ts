// Bounds on the 64-bit values a caller may send: clocks, stamps and epochs.
//
// A Lamport clock only moves forward, so one value a caller pushes it to is
// kept for good, and clock sync spreads it to every backend. At 2^64 - 1 the
// clock cannot tick, equal stamps then order by writer id, and a later write
// loses to an earlier one (docs/HAZARDS.md 11). So:
// - no clock, stamp or epoch reaches CLOCK_CEILING / EPOCH_CEILING (2^62):
//   the space above stays unused, far from wrapping on the wire;
// - a caller may raise a backend's clock (atLeast, or the clock of a stamp it
//   chose) at most MAX_CLOCK_JUMP (2^32) above where that backend stands, so
//   walking a clock to the ceiling takes over a billion calls, each answered;
// - epochs are adopted only from keepers (heartbeats), never from the target of
//   a data call, which is only compared.
import { InvalidArgumentError } from "./errors.js";

/** No clock (and so no stamp) at or above this is stored or handed out. */
export const CLOCK_CEILING = 2n ** 62n;
/** How far above a backend's clock a caller may ask it to go in one call. */
export const MAX_CLOCK_JUMP = 2n ** 32n;
/** No view epoch at or above this is adopted or minted. */
export const EPOCH_CEILING = 2n ** 62n;

/** Throws unless clock is a usable clock value: 0 <= clock < 2^62. */
export function checkClock(field: string, clock: bigint): bigint {
  if (clock < 0n || clock >= CLOCK_CEILING) {
    throw new InvalidArgumentError(`${field} ${clock} is outside the clock range 0 .. 2^62-1`);
  }
  return clock;
}

/**
 * Throws unless a caller's clock request stays within MAX_CLOCK_JUMP of the
 * backend's clock `current`: clocks are raised to values seen in the cluster,
 * which keepers keep within seconds of every backend.
 */
export function checkClockJump(field: string, requested: bigint, current: bigint): bigint {
  checkClock(field, requested);
  if (requested > current + MAX_CLOCK_JUMP) {
    throw new InvalidArgumentError(
      `${field} ${requested} is more than 2^32 above this backend's clock ${current}; a clock may only be raised to values seen in the cluster`,
    );
  }
  return requested;
}

/** Throws unless epoch is below EPOCH_CEILING. */
export function checkEpoch(field: string, epoch: bigint): bigint {
  if (epoch < 0n || epoch >= EPOCH_CEILING) {
    throw new InvalidArgumentError(`${field} ${epoch} is outside the epoch range 0 .. 2^62-1`);
  }
  return epoch;
}
