// Progress of long work (chaos runs, bench cells). On a terminal: one line
// with a bar, redrawn in place, and left with the cursor at its start, so a
// log line printed meanwhile writes over it and the next redraw comes below.
// Anywhere else (a pipe, a file, CI): one plain line per report, no escapes.

/** The part of a stream this needs (process.stderr, or a test's fake). */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

const BAR_WIDTH = 24;
const CLEAR_LINE = "\u001b[2K";

/** `[#########...............]  37%`, for a fraction between 0 and 1. */
export function progressBar(fraction: number, width = BAR_WIDTH): string {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  const filled = Math.round(clamped * width);
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${String(Math.floor(clamped * 100)).padStart(3)}%`;
}

export class ProgressLine {
  #drawn = false;

  constructor(private readonly stream: ProgressStream) {}

  /** Reports `text`, `done` of the work being that fraction of it (a bar on a terminal only). */
  update(text: string, done?: number): void {
    if (!this.stream.isTTY) {
      this.stream.write(`${text}\n`);
      return;
    }
    const line = done === undefined ? text : `${progressBar(done)} ${text}`;
    const width = this.stream.columns ?? 0;
    const fitted = width > 1 && line.length >= width ? `${line.slice(0, width - 2)}…` : line;
    this.stream.write(`${CLEAR_LINE}${fitted}\r`);
    this.#drawn = true;
  }

  /** Like update, but only on a terminal: what is under way, when the lines that stay say enough elsewhere. */
  transient(text: string, done?: number): void {
    if (this.stream.isTTY) this.update(text, done);
  }

  /** Writes a line that stays (a result), in place of the bar on a terminal. */
  log(text: string): void {
    this.stream.write(this.stream.isTTY ? `${CLEAR_LINE}${text}\n` : `${text}\n`);
    this.#drawn = false;
  }

  /** Ends the line on a terminal, so what is written next starts below it. */
  finish(): void {
    if (this.stream.isTTY && this.#drawn) this.stream.write("\n");
    this.#drawn = false;
  }
}
