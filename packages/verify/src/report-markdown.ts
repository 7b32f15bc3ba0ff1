// The markdown summary of a verification: the verdicts with their counts, each violation's window,
// and the faults that were injected.
import type { History } from "./history.js";
import { describeEntry, type Verdict } from "./verdict.js";
import type { VerifyOutcome } from "./verify-history.js";

const RESULT_LABEL = { pass: "PASS", fail: "FAIL", unknown: "UNKNOWN" } as const;

/** One verdict as plain text lines, for the terminal. */
export function verdictLines(verdict: Verdict): string[] {
  const c = verdict.counts;
  const lines = [
    `${verdict.checker}: ${RESULT_LABEL[verdict.result]} — ops ${c.ops} (ok ${c.ok}, failed ${c.failed}, unknown ${c.unknown}); lost ${c.lost}, stale ${c.stale}, violations ${c.violations}`,
  ];
  for (const note of verdict.notes) lines.push(`  note: ${note}`);
  for (const violation of verdict.violations) {
    lines.push(`  ${violation.kind}: ${violation.message}`);
    for (const entry of violation.window) lines.push(`    ${describeEntry(entry)}`);
  }
  if (verdict.counts.violations > verdict.violations.length) {
    lines.push(`  ... and ${verdict.counts.violations - verdict.violations.length} more violation(s)`);
  }
  return lines;
}

export function renderMarkdown(history: History, outcome: VerifyOutcome, timelineFile?: string): string {
  const out: string[] = [`# binring verification: ${RESULT_LABEL[outcome.result]}`, ""];
  const meta = history.meta;
  const duration = history.ops.reduce((end, op) => Math.max(end, op.complete), 0) / 1000;
  out.push(
    `${history.ops.length} operations over ${duration.toFixed(1)} s` +
      (meta?.processes !== undefined ? ` from ${meta.processes} clients` : "") +
      (meta?.seed !== undefined ? `, seed ${meta.seed}` : "") +
      (meta?.started ? `, started ${meta.started}` : "") +
      `; ${history.faults.length} faults; checked in ${Math.round(outcome.elapsedMs)} ms.`,
    "",
    "| checker | verdict | ops | ok | failed | unknown | lost | stale | violations |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const v of outcome.verdicts) {
    const c = v.counts;
    out.push(
      `| ${v.checker} | ${RESULT_LABEL[v.result]} | ${c.ops} | ${c.ok} | ${c.failed} | ${c.unknown} | ${c.lost} | ${c.stale} | ${c.violations} |`,
    );
  }
  out.push("");
  for (const v of outcome.verdicts) {
    if (v.notes.length === 0 && v.violations.length === 0) continue;
    out.push(`## ${v.checker}`, "");
    for (const note of v.notes) out.push(`- ${note}`);
    if (v.notes.length > 0) out.push("");
    for (const violation of v.violations) {
      out.push(`**${violation.kind}**: ${violation.message}`, "", "```");
      for (const entry of violation.window) out.push(describeEntry(entry));
      out.push("```", "");
    }
    if (v.counts.violations > v.violations.length) {
      out.push(`... and ${v.counts.violations - v.violations.length} more.`, "");
    }
  }
  if (timelineFile) out.push(`## Timeline`, "", `![latency over time with faults](${timelineFile})`, "");
  out.push("## Faults", "");
  if (history.faults.length === 0) out.push("none");
  else {
    out.push("| time (s) | action | target | detail |", "|---:|---|---|---|");
    for (const fault of history.faults) {
      const cell = (text: string | undefined) => (text ?? "").replaceAll("|", "\\|");
      out.push(
        `| ${(fault.time / 1000).toFixed(2)} | ${fault.action} | ${cell(fault.target)} | ${cell(fault.detail)} |`,
      );
    }
  }
  return `${out.join("\n")}\n`;
}
