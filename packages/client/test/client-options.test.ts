// A BinClient's timing options are checked before anything starts: a value a
// timer cannot wait (past 2^31 - 1 ms) would fire at once, over and over.
import { InvalidArgumentError, MAX_TIMER_MS } from "@binring/core";
import { describe, expect, it } from "vitest";
import { BinClient } from "../src/bin-client.js";

const backends = ["127.0.0.1:1"];

describe("BinClient timing options", () => {
  it.each(["backendCallTimeoutMs", "probeIntervalMs", "viewRefreshMs"])(
    "%s is refused past the longest timer, at 0 and when not whole, naming the value",
    (name) => {
      for (const bad of [MAX_TIMER_MS + 1, 2 ** 64 - 1, 0, -1, 1.5, Number.NaN]) {
        expect(() => new BinClient({ backends, [name]: bad })).toThrow(InvalidArgumentError);
        expect(() => new BinClient({ backends, [name]: bad })).toThrow(
          `"${name}" must be a whole number of ms from 1 to ${MAX_TIMER_MS}, got ${String(bad)}`,
        );
      }
    },
  );

  it("takes the longest a timer waits", async () => {
    const client = new BinClient({
      backends,
      backendCallTimeoutMs: MAX_TIMER_MS,
      probeIntervalMs: MAX_TIMER_MS,
      viewRefreshMs: MAX_TIMER_MS,
    });
    await client.close();
  });
});
