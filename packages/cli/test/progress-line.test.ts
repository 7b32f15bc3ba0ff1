// Progress of long work: a bar redrawn in place on a terminal, plain lines elsewhere.
import { describe, expect, it } from "vitest";
import { ProgressLine, progressBar } from "../src/progress-line.js";

function stream(isTTY: boolean, columns?: number) {
  const written: string[] = [];
  return { isTTY, columns, written, write: (text: string) => written.push(text) };
}

describe("progress", () => {
  it("draws a bar for a fraction, clamped to 0..100%", () => {
    expect(progressBar(0, 10)).toBe("[..........]   0%");
    expect(progressBar(0.37, 10)).toBe("[####......]  37%");
    expect(progressBar(1, 10)).toBe("[##########] 100%");
    expect(progressBar(7, 10)).toBe("[##########] 100%");
    expect(progressBar(Number.NaN, 10)).toBe("[..........]   0%");
  });

  it("redraws one line in place on a terminal, keeps results, and ends the line", () => {
    const out = stream(true, 200);
    const line = new ProgressLine(out);
    line.update("chaos 1/10 s", 0.1);
    line.update("chaos 2/10 s", 0.2);
    line.log("a result");
    line.update("healing");
    line.finish();
    expect(out.written).toEqual([
      `\u001b[2K${progressBar(0.1)} chaos 1/10 s\r`,
      `\u001b[2K${progressBar(0.2)} chaos 2/10 s\r`,
      "\u001b[2Ka result\n",
      "\u001b[2Khealing\r",
      "\n",
    ]);
  });

  it("cuts a line wider than the terminal", () => {
    const out = stream(true, 20);
    new ProgressLine(out).update("x".repeat(50));
    expect(out.written[0]).toBe(`\u001b[2K${"x".repeat(18)}…\r`);
  });

  it("writes plain lines, no bar and no escapes, when not on a terminal", () => {
    const out = stream(false);
    const line = new ProgressLine(out);
    line.update("chaos 1/10 s", 0.1);
    line.transient("measuring", 0.5);
    line.log("a result");
    line.finish();
    expect(out.written).toEqual(["chaos 1/10 s\n", "a result\n"]);
  });

  it("draws a transient line on a terminal only", () => {
    const out = stream(true, 200);
    new ProgressLine(out).transient("measuring", 0.5);
    expect(out.written).toEqual([`\u001b[2K${progressBar(0.5)} measuring\r`]);
  });
});
