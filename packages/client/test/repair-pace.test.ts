// A running repair's pace as its keeper reports it (repair-pace.ts): the rate
// so far, and the time left at it by copies done.
import { describe, expect, it } from "vitest";
import { repairPace } from "../src/repair-pace.js";

describe("a running repair's pace", () => {
  it("is the bytes applied per second so far, and the time left at that pace by copies done", () => {
    expect(repairPace({ runningMs: 4000, bytesCopied: 2048, tasksDone: 1, tasksTotal: 4 })).toEqual({
      bytesPerSecond: 512,
      etaMs: 12_000,
    });
  });

  it("has no time left before its first copy is done or after its last, and no rate before it ran", () => {
    expect(repairPace({ runningMs: 0, bytesCopied: 0, tasksDone: 0, tasksTotal: 2 })).toEqual({
      bytesPerSecond: 0,
    });
    expect(repairPace({ runningMs: 900, bytesCopied: 3000, tasksDone: 2, tasksTotal: 2 })).toEqual({
      bytesPerSecond: 3333,
    });
    expect(repairPace({ runningMs: 900, bytesCopied: 3000, tasksDone: 0, tasksTotal: 0 })).toEqual({
      bytesPerSecond: 3333,
    });
  });
});
