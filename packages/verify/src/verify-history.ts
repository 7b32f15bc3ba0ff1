// Runs every checker over one history and combines their verdicts.
import { checkClock } from "./check-clock.js";
import { checkListLinearizability, checkRegisterLinearizability } from "./check-linearizability.js";
import { checkListOrder } from "./check-list-order.js";
import { checkLostWrites } from "./check-lost-writes.js";
import type { History } from "./history.js";
import type { Verdict, VerdictResult } from "./verdict.js";

export interface VerifyOptions {
  /** Time for the linearizability searches of all keys together. @default 60000 */
  budgetMs?: number;
  /** Time for one key's search. @default min(10000, budgetMs) */
  keyBudgetMs?: number;
  /** Told before each checker starts, for a progress line. @default none */
  onProgress?: (message: string) => void;
}

export interface VerifyOutcome {
  /** fail when any checker failed, else unknown when any could not decide, else pass. */
  result: VerdictResult;
  verdicts: Verdict[];
  elapsedMs: number;
}

export function verifyHistory(history: History, options: VerifyOptions = {}): VerifyOutcome {
  const started = performance.now();
  const budgetMs = options.budgetMs ?? 60_000;
  const keyBudgetMs = options.keyBudgetMs ?? Math.min(10_000, budgetMs);
  const progress = options.onProgress ?? (() => {});
  progress(`checking ${history.ops.length} operations for lost writes`);
  const verdicts = [checkLostWrites(history)];
  progress("checking string keys for linearizability");
  verdicts.push(checkRegisterLinearizability(history, { budgetMs, keyBudgetMs }));
  progress("checking list keys for linearizability");
  // The list search gets what the register search left of the budget.
  const spent = performance.now() - started;
  verdicts.push(checkListLinearizability(history, { budgetMs: Math.max(0, budgetMs - spent), keyBudgetMs }));
  progress("checking list order");
  verdicts.push(checkListOrder(history));
  progress("checking clocks");
  verdicts.push(checkClock(history));
  const results = verdicts.map((verdict) => verdict.result);
  const result = results.includes("fail") ? "fail" : results.includes("unknown") ? "unknown" : "pass";
  return { result, verdicts, elapsedMs: performance.now() - started };
}
