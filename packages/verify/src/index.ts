// @binring/verify: reads an operation history recorded under faults and checks it for lost
// writes, non-linearizable reads, list order and clock regressions; renders the report.

export { type ClockOptions, checkClock } from "./check-clock.js";
export {
  checkListLinearizability,
  checkRegisterLinearizability,
  type LinearizabilityOptions,
} from "./check-linearizability.js";
export { checkListOrder } from "./check-list-order.js";
export { checkLostWrites } from "./check-lost-writes.js";
export {
  type Fault,
  type FinalRead,
  type History,
  HistoryBuilder,
  HistoryFormatError,
  type HistoryMeta,
  type Operation,
  type OpKind,
  type OpStatus,
  parseHistory,
  readHistory,
} from "./history.js";
export { type ListState, listModel, registerModel } from "./models.js";
export { renderMarkdown, verdictLines } from "./report-markdown.js";
export { renderTimelineSvg } from "./timeline-svg.js";
export {
  type CheckerName,
  describeEntry,
  type Verdict,
  type VerdictCounts,
  type VerdictResult,
  type Violation,
} from "./verdict.js";
export { type VerifyOptions, type VerifyOutcome, verifyHistory } from "./verify-history.js";
export { ILLEGAL, type Model, type SearchResult, searchLinearization, type TimedOp } from "./wgl-search.js";
