// Checks a recorded history with @binring/verify and writes the report beside
// it: summary.md (verdicts, violation windows, faults) and timeline.svg
// (latency over time with fault markers).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  readHistory,
  renderMarkdown,
  renderTimelineSvg,
  type VerifyOutcome,
  verdictLines,
  verifyHistory,
} from "@binring/verify";

export interface VerifiedRun {
  outcome: VerifyOutcome;
  /** The verdicts as terminal lines. */
  lines: string[];
  reportPath: string;
  timelinePath: string;
}

export async function verifyRun(historyPath: string, outDir: string, title: string): Promise<VerifiedRun> {
  const history = await readHistory(historyPath);
  const outcome = verifyHistory(history);
  const timelinePath = join(outDir, "timeline.svg");
  const reportPath = join(outDir, "summary.md");
  writeFileSync(timelinePath, renderTimelineSvg(history, title));
  writeFileSync(reportPath, renderMarkdown(history, outcome, "timeline.svg"));
  return { outcome, lines: outcome.verdicts.flatMap(verdictLines), reportPath, timelinePath };
}
