// `binring verify HISTORY`: checks a recorded operation history for lost writes, non-linearizable
// reads, list order and clock regressions; prints the verdicts and optionally writes a markdown report and an
// SVG timeline. Exit code 0 when every checker passes, 1 on a violation, 2 on bad input, 3 when
// no violation was found but a checker could not decide within the budget.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type History,
  HistoryFormatError,
  readHistory,
  renderMarkdown,
  renderTimelineSvg,
  verdictLines,
  verifyHistory,
} from "@binring/verify";
import { parseFlags, parsePositiveInt } from "../args.js";
import { CliError } from "../cli-error.js";
import { defineCommand } from "../command.js";
import { usageLine } from "../help.js";
import { makeDirectory } from "../make-directory.js";

export const VERIFY = defineCommand({
  name: "verify",
  summary: "check a recorded history (history.jsonl) for lost writes, stale reads, list order and clocks",
  synopsis: "HISTORY [options]",
  flags: {
    report: { type: "string", value: "DIR", description: "also write DIR/summary.md and DIR/timeline.svg" },
    json: { type: "boolean", description: "print the verdicts as JSON" },
    "budget-ms": {
      type: "string",
      value: "N",
      default: "60000",
      description: "time allowed for the linearizability search; exit 3 when it runs out",
    },
  },
  example: "binring verify .binring/chaos/run-1/history.jsonl --report report/",
});

const EXIT_CODES = { pass: 0, fail: 1, unknown: 3 } as const;

async function loadHistory(path: string): Promise<History> {
  try {
    return await readHistory(path);
  } catch (error) {
    if (error instanceof HistoryFormatError) throw new CliError(`binring verify: ${path}: ${error.message}`);
    throw new CliError(`binring verify: cannot read history ${path}: ${(error as Error).message}`);
  }
}

export async function verifyCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseFlags(VERIFY, args);
  if (positionals.length !== 1) throw new CliError(`usage: ${usageLine(VERIFY)}`);
  const path = positionals[0]!;
  const budgetMs = parsePositiveInt("budget-ms", values["budget-ms"]);
  // Progress goes to a terminal only, so that piped output stays exactly the verdicts.
  const progress = process.stderr.isTTY
    ? (message: string) => process.stderr.write(`verify: ${message}...\n`)
    : undefined;
  progress?.(`reading ${path}`);
  const history = await loadHistory(path);
  const outcome = verifyHistory(history, progress ? { budgetMs, onProgress: progress } : { budgetMs });
  const reportFiles: string[] = [];
  if (values.report !== undefined) {
    makeDirectory(values.report);
    const summary = join(values.report, "summary.md");
    const timeline = join(values.report, "timeline.svg");
    const title = `binring run${history.meta?.seed === undefined ? "" : ` seed ${history.meta.seed}`}: ${outcome.result.toUpperCase()}`;
    writeFileSync(timeline, renderTimelineSvg(history, title));
    writeFileSync(summary, renderMarkdown(history, outcome, "timeline.svg"));
    reportFiles.push(summary, timeline);
  }
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ result: outcome.result, elapsedMs: Math.round(outcome.elapsedMs), verdicts: outcome.verdicts, report: reportFiles })}\n`,
    );
  } else {
    const lines = outcome.verdicts.flatMap(verdictLines);
    lines.push(
      `verify: ${outcome.result.toUpperCase()} — ${history.ops.length} operations, ${history.faults.length} faults, checked in ${Math.round(outcome.elapsedMs)} ms`,
    );
    if (reportFiles.length > 0) lines.push(`report: ${reportFiles.join(", ")}`);
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  process.exitCode = EXIT_CODES[outcome.result];
}
