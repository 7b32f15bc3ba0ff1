// The backend's Lamport clock. It lives in memory for speed; the store keeps a
// reservation above every value handed out, so after a restart the clock
// resumes at the reservation and never repeats or goes backwards. It never
// reaches CLOCK_CEILING (core/value-bounds.ts): a clock that cannot tick would
// let a later write tie with an earlier one.
import {
  CLOCK_CEILING,
  ClockBehindError,
  checkClock,
  checkClockJump,
  MAX_CLOCK_JUMP,
  OutOfRangeError,
} from "@binring/core";
import type { StoreEngine } from "./store-engine.js";

/** How far ahead of the clock a reservation goes: one store write per this many ticks. */
const RESERVATION_STEP = 1_000_000n;

export class PersistentClock {
  /** The next value tick() may hand out; valid once #loading resolved. */
  #next = 0n;
  /** Persisted: no value at or above it was ever handed out. */
  #reserved = 0n;
  #loading: Promise<void> | undefined;
  #raising: Promise<void> | undefined;

  constructor(private readonly engine: StoreEngine) {}

  /** Loads the reservation; retried by the next call when the store is away. */
  load(): Promise<void> {
    this.#loading ??= this.engine.loadClockReservation().then(
      (reserved) => {
        this.#reserved = reserved;
        if (this.#next < reserved) this.#next = reserved;
      },
      (error: unknown) => {
        this.#loading = undefined;
        throw error;
      },
    );
    return this.#loading;
  }

  /**
   * Checks a clock value a caller asks for (atLeast, or the clock of a stamp
   * it chose) against this clock: at most MAX_CLOCK_JUMP above it.
   */
  async checkJump(field: string, requested: bigint): Promise<bigint> {
    await this.load();
    return checkClockJump(field, requested, this.#next);
  }

  /**
   * The same bound for a stamp a writer drew from another replica (or the
   * clock it raises a replica to before stamping): past the window this clock
   * is taken to be behind, not the caller ahead. A backend back on an empty
   * store starts at 0 until keeper clock sync reaches it, so the writer is
   * told this backend is behind rather than that its write is bad.
   */
  async checkCaughtUp(field: string, requested: bigint): Promise<bigint> {
    checkClock(field, requested);
    await this.load();
    if (requested > this.#next + MAX_CLOCK_JUMP) {
      throw new ClockBehindError(
        `${field} ${requested} is more than 2^32 above this backend's clock ${this.#next}; it catches up through keeper clock sync within a second`,
      );
    }
    return requested;
  }

  /** Raises the clock to atLeast if below, returns it, and increments it. */
  async tick(atLeast = 0n): Promise<bigint> {
    checkClock("atLeast", atLeast);
    await this.load();
    const value = this.#next > atLeast ? this.#next : atLeast;
    this.#next = exhaustedAt(value) + 1n;
    await this.#cover(this.#next);
    return value;
  }

  /** Makes the clock larger than `clock` (an entry's stamp, or a keeper's floor). */
  async observe(clock: bigint): Promise<void> {
    checkClock("clock", clock);
    await this.load();
    if (this.#next <= clock) this.#next = exhaustedAt(clock) + 1n;
    await this.#cover(this.#next);
  }

  /**
   * The store restarted and its reservation may have gone back below values
   * already handed out: persist one above them again now, before a restart of
   * this process could resume from the old one. A failure leaves it to the
   * next tick or observe, which cover it before handing anything out.
   */
  storeReset(): void {
    this.#reserved = 0n;
    this.#cover(this.#next).catch(() => undefined);
  }

  /** The value the next tick() returns at least (no side effect). */
  peek(): bigint {
    return this.#next;
  }

  // Ensures the persisted reservation is at least `upTo` before any value below it is used.
  async #cover(upTo: bigint): Promise<void> {
    while (this.#reserved < upTo) {
      if (!this.#raising) {
        const target = upTo + RESERVATION_STEP > CLOCK_CEILING ? CLOCK_CEILING : upTo + RESERVATION_STEP;
        this.#raising = this.engine
          .raiseClockReservation(target)
          .then((stored) => {
            if (stored > this.#reserved) this.#reserved = stored;
          })
          .finally(() => {
            this.#raising = undefined;
          });
      }
      await this.#raising;
    }
  }
}

/** Returns value unless the clock could not move past it while staying below the ceiling. */
function exhaustedAt(value: bigint): bigint {
  if (value + 1n >= CLOCK_CEILING) {
    throw new OutOfRangeError(`clock ${value} cannot move past it: the clock ceiling is 2^62`);
  }
  return value;
}
