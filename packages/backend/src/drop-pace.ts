// How a backend deletes bins so that its store keeps answering clients'
// calls: each bin in script calls of a bounded number of keys, however large
// the bin; and the bins a keeper's view no longer places here, once a move
// has copied them to their new replicas, a few at a time, resting between
// rounds. Unpaced, the six former holders of a 100k-key move deleted their
// share within half a second and clients' p99 on every bin rose to 4–9× idle
// meanwhile; at a quarter of the store's time it stayed at idle
// (bench/results/NOTES.md). Nothing waits on the space a drop frees; the
// keeper's job that asked for it does, a second or two longer.
import { setTimeout as sleep } from "node:timers/promises";

/** Bins a paced drop deletes at a time, one script call each per round: a few milliseconds of the store's time. */
export const PACED_DROP_BINS = 8;

/** Most keys one call of a bin's drop deletes (`lua/drop-bin.lua`): 2–3 ms of Redis's time. */
export const DROP_KEYS_PER_CALL = 500;

/** Rest per millisecond a round took: 3 leaves the drop a quarter of the store's time. */
const REST_PER_ROUND_MS = 3;

/** After each round of a paced drop: rests in proportion to how long the round took. */
export function restAfterDropRound(roundMs: number): Promise<void> {
  return sleep(roundMs * REST_PER_ROUND_MS);
}
