// How `binring status` shows a running repair or fill: a bar over its copies,
// what it copied, the rate, and the time left at that rate.
import { describe, expect, it } from "vitest";
import { runningRepair } from "../src/commands/status.js";

describe("a running repair in binring status", () => {
  it("shows a bar, copies, entries, bytes, rate and the time left", () => {
    const line = runningRepair({
      kind: "fill",
      backend: "10.0.0.7:7000",
      state: "running",
      runningMs: 4000,
      tasksDone: 1,
      tasksTotal: 4,
      entriesCopied: 10,
      bytesCopied: 2048,
    });
    expect(line).toBe(
      "fill 10.0.0.7:7000: [######..................]  25% 1/4 copies, 10 entries, 2.0 KiB in 4.0 s (512 B/s, about 12 s left)",
    );
  });

  it("shows no time left before the first copy is done, and none after the last", () => {
    const at = (tasksDone: number) =>
      runningRepair({
        kind: "repair",
        backend: "b",
        state: "running",
        runningMs: 0,
        tasksDone,
        tasksTotal: 2,
      });
    expect(at(0)).toBe("repair b: [........................]   0% 0/2 copies, 0 entries, 0 B in 0.0 s (-)");
    expect(at(2)).not.toMatch(/left/);
  });
});
