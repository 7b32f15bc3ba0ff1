// The shape of a stamp, apart from the code that checks and orders stamps
// (stamp.ts), so that errors.ts can name it without importing what imports it.

/** (clock, writer, seq), ordered in that order (stamp.ts compareStamps). */
export interface Stamp {
  clock: bigint;
  /** 16 lowercase hex digits, random per writer instance. */
  writer: string;
  /** Counter per writer, so one writer's entries differ even at the same clock. */
  seq: number;
}
