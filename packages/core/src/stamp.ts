// Stamps order log entries. A stamp is (clock, writer, seq), compared in that
// order; writer ids are unique per writer instance and seq per writer, so two
// distinct entries never share a stamp (HAZARDS.md 2).
import { InvalidArgumentError } from "./errors.js";
import type { Stamp } from "./stamp-type.js";
import { checkClock } from "./value-bounds.js";

export type { Stamp } from "./stamp-type.js";

export const WRITER_ID_LENGTH = 16;
const WRITER_ID = /^[0-9a-f]{16}$/;
const MAX_SEQ = 2 ** 32 - 1;

/** Length of encodeStamp's output: 16 hex digits of clock, the writer id, 8 hex digits of seq. */
export const ENCODED_STAMP_LENGTH = 16 + WRITER_ID_LENGTH + 8;

/** A fresh random writer id. */
export function newWriterId(): string {
  const bytes = new Uint8Array(WRITER_ID_LENGTH / 2);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString("hex");
}

export function checkWriterId(field: string, writer: string): string {
  if (!WRITER_ID.test(writer)) {
    throw new InvalidArgumentError(
      `${field} must be ${WRITER_ID_LENGTH} lowercase hex digits, got ${JSON.stringify(writer)}`,
    );
  }
  return writer;
}

export function checkStamp(field: string, stamp: Stamp): Stamp {
  checkClock(`${field}.clock`, stamp.clock);
  checkWriterId(`${field}.writer`, stamp.writer);
  if (!Number.isInteger(stamp.seq) || stamp.seq < 0 || stamp.seq > MAX_SEQ) {
    throw new InvalidArgumentError(`${field}.seq must be a 32-bit unsigned integer, got ${stamp.seq}`);
  }
  return stamp;
}

/**
 * A fixed-width string whose byte order is the stamp order, so stores can
 * compare stamps as strings (Lua numbers cannot hold 64-bit clocks exactly).
 */
export function encodeStamp(stamp: Stamp): string {
  return stamp.clock.toString(16).padStart(16, "0") + stamp.writer + stamp.seq.toString(16).padStart(8, "0");
}

export function decodeStamp(encoded: string): Stamp {
  return {
    clock: BigInt(`0x${encoded.slice(0, 16)}`),
    writer: encoded.slice(16, 16 + WRITER_ID_LENGTH),
    seq: Number.parseInt(encoded.slice(16 + WRITER_ID_LENGTH, ENCODED_STAMP_LENGTH), 16),
  };
}

export function compareStamps(a: Stamp, b: Stamp): number {
  if (a.clock !== b.clock) return a.clock < b.clock ? -1 : 1;
  if (a.writer !== b.writer) return a.writer < b.writer ? -1 : 1;
  return a.seq - b.seq;
}
