// The stamp a data call's write is stored under: the one its coordinator gave
// it (checked, and this backend's clock raised past it first: HAZARDS.md 2),
// or, for a caller that sends none, the next tick of this backend's clock.
import { checkStamp, checkWriterId, newWriterId, type Stamp } from "@binring/core";
import type { WriteRequest } from "./backend-calls.js";
import type { PersistentClock } from "./persistent-clock.js";

export class WriteStamps {
  /** Writer id for entries this backend stamps on behalf of callers that give none. */
  readonly #writer = newWriterId();
  #seq = 0;

  constructor(private readonly clock: PersistentClock) {}

  async of(request: WriteRequest): Promise<Stamp> {
    if (request.stamp) {
      const stamp = checkStamp("stamp", request.stamp);
      await this.clock.checkCaughtUp("stamp.clock", stamp.clock);
      await this.clock.observe(stamp.clock);
      return stamp;
    }
    const writer = request.writer ? checkWriterId("writer", request.writer) : this.#writer;
    const seq = request.writer ? (request.seq ?? 0) : this.#seq++ >>> 0;
    const atLeast = await this.clock.checkJump("atLeast", request.atLeast ?? 0n);
    return checkStamp("stamp", { clock: await this.clock.tick(atLeast), writer, seq });
  }
}
