// `binring verify` as users run it: verdicts and exit codes on recorded histories, the report
// files, and one readable line for a history that does not follow the format.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, runCli } from "../support/index.js";

const fixture = (name: string) => join(REPO_ROOT, "test/src/cli/fixtures", name);
const scratch = () => mkdtempSync(join(tmpdir(), "binring-verify-"));

describe("binring verify", () => {
  it("passes a valid history with unknown and failed operations, and writes the report", async () => {
    const dir = join(scratch(), "report");
    const result = await runCli(["verify", fixture("valid-history.jsonl"), "--report", dir]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^lost-writes: PASS — ops 10 \(ok 8, failed 1, unknown 1\); lost 0/m);
    expect(result.stdout).toMatch(/^linearizability: PASS/m);
    expect(result.stdout).toMatch(/^lists: PASS/m);
    expect(result.stdout).toMatch(/^list-order: PASS — ops 4 \(ok 3, failed 1, unknown 0\)/m);
    expect(result.stdout).toMatch(/^verify: PASS — 12 operations, 2 faults/m);
    const summary = readFileSync(join(dir, "summary.md"), "utf8");
    expect(summary).toMatch(/^# binring verification: PASS/);
    expect(summary).toContain("| 0.02 | kill-backend | backend-2 | with its redis-server |");
    const svg = readFileSync(join(dir, "timeline.svg"), "utf8");
    expect(svg).toContain(">kill-backend backend-2</text>");
  });

  it("exits 1 on a lost write and a stale read, printing the window", async () => {
    const result = await runCli(["verify", fixture("lost-write-history.jsonl")]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^lost-writes: FAIL — .*lost 1, stale 0, violations 1$/m);
    expect(result.stdout).toContain('acknowledged set of b1/k1 to "p1-2" is lost');
    expect(result.stdout).toMatch(/^linearizability: FAIL — .*stale 1, violations 1$/m);
    expect(result.stdout).toContain('#3 p2 [30.0, 31.0] get b1/k1 ok -> "p0-1"');
    expect(result.stdout).toMatch(/^verify: FAIL/m);
    const json = await runCli(["verify", fixture("lost-write-history.jsonl"), "--json"]);
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.result).toBe("fail");
    expect(parsed.verdicts[0].violations[0].window.map((e: { id?: number }) => e.id ?? "final")).toEqual([
      1,
      2,
      "final",
    ]);
  });

  it("exits 3 when the budget runs out before a key is decided", async () => {
    const path = join(scratch(), "pathological.jsonl");
    const op = (id: number, fields: object) =>
      JSON.stringify({ type: "op", id, process: id, bin: "b", key: "k", status: "ok", ...fields });
    const lines = Array.from({ length: 24 }, (_, i) =>
      op(i, { op: "set", value: `p${i}-${i}`, invoke: 0, complete: 100, result: true }),
    );
    lines.push(op(24, { op: "get", invoke: 200, complete: 210, result: "p0-0" }));
    lines.push(op(25, { op: "get", invoke: 300, complete: 310, result: "p1-1" }));
    writeFileSync(path, `${lines.join("\n")}\n`);
    const started = performance.now();
    const result = await runCli(["verify", path, "--budget-ms", "300"]);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/^linearizability: UNKNOWN/m);
    expect(result.stdout).toContain("undecided within the budget: 1 key(s) (b/k)");
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it.each([
    [
      ["verify", fixture("bad-history.jsonl")],
      /bad-history.jsonl: history line 3: "invoke" must be a finite number, got "soon"/,
    ],
    [["verify", "/nonexistent/history.jsonl"], /cannot read history \/nonexistent\/history.jsonl/],
    [["verify"], /^usage: binring verify HISTORY/],
    [
      ["verify", fixture("valid-history.jsonl"), "--budget-ms", "soon"],
      /--budget-ms must be a positive integer/,
    ],
    [["verify", fixture("valid-history.jsonl"), "--colour"], /Unknown option '--colour'/],
  ])("binring %j exits 2 with one line", async (args, message) => {
    const result = await runCli(args as string[]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it("does not write a report for bad input", async () => {
    const dir = join(scratch(), "report");
    await runCli(["verify", fixture("bad-history.jsonl"), "--report", dir]);
    expect(existsSync(dir)).toBe(false);
  });
});
