import { describe, expect, it } from "vitest";
import { type Operation, parseHistory } from "../src/history.js";
import { renderMarkdown } from "../src/report-markdown.js";
import { renderTimelineSvg } from "../src/timeline-svg.js";
import { verifyHistory } from "../src/verify-history.js";
import { historyLines, simulateHistory } from "./simulated-history.js";

describe("a 60 s history of 16 clients over 25 string and 25 list keys", () => {
  const history = simulateHistory({ seed: 7 });

  it("passes every checker within a few seconds", () => {
    expect(history.ops.length).toBeGreaterThan(40_000);
    const outcome = verifyHistory(history);
    console.log(`verified ${history.ops.length} operations in ${Math.round(outcome.elapsedMs)} ms`);
    for (const verdict of outcome.verdicts) console.log(verdict.checker, verdict.notes.join("; "));
    expect(outcome.verdicts.map((v) => [v.checker, v.result])).toEqual([
      ["lost-writes", "pass"],
      ["linearizability", "pass"],
      ["lists", "pass"],
      ["list-order", "pass"],
      ["clock", "pass"],
    ]);
    expect(outcome.verdicts[1]!.counts.unknown).toBeGreaterThan(0);
    // Generous for a shared two-core machine; measured well under this (see the package README).
    expect(outcome.elapsedMs).toBeLessThan(20_000);
  });

  it("round-trips through the JSON-lines format", () => {
    const small = simulateHistory({ seed: 5, durationMs: 5000 });
    expect(parseHistory(historyLines(small))).toEqual(small);
  });

  it("finds one stale read planted among them, with a small window", () => {
    const onKey = (op: Operation) => op.bin === "b2" && op.key === "k3";
    const firstWrite = history.ops.find((op) => onKey(op) && op.op === "set" && op.value)!;
    const lastRead = history.ops.findLast((op) => onKey(op) && op.op === "get" && op.status === "ok")!;
    const stale = { ...lastRead, result: firstWrite.value! };
    const sabotaged = { ...history, ops: history.ops.map((op) => (op === lastRead ? stale : op)) };
    const outcome = verifyHistory(sabotaged);
    expect(outcome.result).toBe("fail");
    const linearizability = outcome.verdicts[1]!;
    expect(linearizability.counts).toMatchObject({ stale: 1, violations: 1 });
    const window = linearizability.violations[0]!.window;
    expect(window.length).toBeLessThanOrEqual(4);
    expect(window).toContain(stale);
    expect(window).toContain(firstWrite);
  });

  it("finds two settled elements swapped in one read, with the two appends, the read and the final", () => {
    const lastRead = history.ops.findLast(
      (op) => op.op === "listGet" && op.status === "ok" && (op.result as string[]).length >= 2,
    )!;
    const [first, second, ...rest] = lastRead.result as string[];
    const swapped = { ...lastRead, result: [second!, first!, ...rest] };
    const sabotaged = { ...history, ops: history.ops.map((op) => (op === lastRead ? swapped : op)) };
    const outcome = verifyHistory(sabotaged);
    expect(outcome.result).toBe("fail");
    const order = outcome.verdicts.find((verdict) => verdict.checker === "list-order")!;
    expect(order.counts.violations).toBe(1);
    const window = order.violations[0]!.window;
    expect(window).toContain(swapped);
    expect(
      window.filter((entry) => "op" in entry && entry.op === "listAppend").map((op) => op.value),
    ).toEqual(expect.arrayContaining([first, second]));
    expect(window.length).toBeLessThanOrEqual(4);
    expect(outcome.verdicts.find((verdict) => verdict.checker === "lists")!.result).toBe("pass");
  });
});

describe("report", () => {
  const history = simulateHistory({ seed: 3, durationMs: 11_000, processes: 4 });
  const outcome = verifyHistory(history);

  it("summarises verdicts, counts and faults in markdown", () => {
    const markdown = renderMarkdown(history, outcome, "timeline.svg");
    expect(markdown).toMatch(/^# binring verification: PASS\n/);
    expect(markdown).toMatch(/\| linearizability \| PASS \| \d+ \| \d+ \| \d+ \| \d+ \| 0 \| 0 \| 0 \|/);
    expect(markdown).toContain("| 5.00 | kill-backend | backend-0 |  |");
    expect(markdown).toContain("![latency over time with faults](timeline.svg)");
  });

  it("draws a panel per operation kind and a line per fault", () => {
    const svg = renderTimelineSvg(history, "run");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
    for (const kind of ["set", "get", "listAppend", "listRemove", "listGet", "clock"]) {
      expect(svg).toContain(`stroke-width="4">${kind}</text>`);
    }
    expect(svg.match(/stroke-dasharray="4 3"/g)).toHaveLength(history.faults.length);
    expect(svg).toContain(">kill-backend backend-0</text>");
  });

  it("draws network faults dotted, a colour per kind, named in a legend", () => {
    const network = [
      { time: 1000, action: "partition", target: "backend-1" },
      { time: 2000, action: "slow-link", target: "clients<->backend-2" },
      { time: 3000, action: "reconnect", target: "backend-1" },
    ];
    const svg = renderTimelineSvg({ ...history, faults: [...history.faults, ...network] }, "run");
    expect(svg.match(/stroke-dasharray="1 2"/g)).toHaveLength(network.length);
    expect(svg.match(/stroke-dasharray="4 3"/g)).toHaveLength(history.faults.length);
    expect(svg).toMatch(/<line [^>]*stroke="#e377c2"[^>]*stroke-dasharray="1 2"/);
    expect(svg).toMatch(/<line [^>]*stroke="#bcbd22"[^>]*stroke-dasharray="1 2"/);
    expect(svg).toMatch(/network faults \(dotted\): .*partition.*slow-link/);
    expect(svg).not.toMatch(/network faults \(dotted\): .*cut-clients/);
  });
});
