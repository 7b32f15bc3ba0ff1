// Sizes of what the Storage service sends and takes, in bytes (docs/HAZARDS.md
// 13): upper bounds on encoded results and entries, splitting replies and scans
// into messages of about MESSAGE_BUDGET_BYTES, and refusing a result, a reply or
// a batch past its limit.
import {
  type Entry,
  MAX_OPERATIONS_PER_MESSAGE,
  MAX_RESULT_BYTES,
  type OperationResult,
  ReplyTooLargeError,
  ResourceExhaustedError,
  toOperationError,
  utf8Bound,
} from "@binring/core";

/** Room for a message's framing beside the strings counted. */
const ITEM_OVERHEAD_BYTES = 64;

/** An upper bound on the encoded size of one result. */
export function resultBytes(result: OperationResult): number {
  if (result.get) return utf8Bound(result.get.value ?? "") + ITEM_OVERHEAD_BYTES;
  const strings = result.listGet?.values ?? result.keys?.keys;
  if (strings) return stringsBytes(strings);
  return ITEM_OVERHEAD_BYTES + (result.error ? utf8Bound(result.error.message ?? "") : 0);
}

export function stringsBytes(strings: readonly string[]): number {
  let bytes = ITEM_OVERHEAD_BYTES;
  for (const value of strings) bytes += utf8Bound(value) + 8;
  return bytes;
}

export function entryBytes(entry: Entry): number {
  return utf8Bound(entry.bin) + utf8Bound(entry.key) + utf8Bound(entry.value) + ITEM_OVERHEAD_BYTES;
}

/** Splits items into consecutive runs of about budget bytes; an item larger than that travels alone. */
export function* byBytes<T>(items: readonly T[], size: (item: T) => number, budget: number): Generator<T[]> {
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < items.length; i++) {
    const itemBytes = size(items[i]!);
    if (i > start && bytes + itemBytes > budget) {
      yield items.slice(start, i);
      start = i;
      bytes = 0;
    }
    bytes += itemBytes;
  }
  if (start === 0) yield items as T[];
  else yield items.slice(start);
}

/** Refuses a result the caller could not be sent. */
export function checkResultSize(what: string, strings: string[]): string[] {
  const bound = stringsBytes(strings);
  if (bound > MAX_RESULT_BYTES) {
    const bytes = strings.reduce((sum, value) => sum + Buffer.byteLength(value, "utf8"), 0);
    if (bytes > MAX_RESULT_BYTES) {
      throw new ReplyTooLargeError(
        `${what} is ${bytes} bytes (${strings.length} items), over the largest reply of ${MAX_RESULT_BYTES} bytes; narrow it with a prefix`,
      );
    }
  }
  return strings;
}

/** Refuses a result as soon as it passed MAX_RESULT_BYTES, before the rest of it is read. */
export function resultPassedLimit(what: string, items: number, bytes: number): ReplyTooLargeError {
  return new ReplyTooLargeError(
    `${what} passed the largest reply of ${MAX_RESULT_BYTES} bytes at ${bytes} bytes (${items} items); narrow it with a prefix`,
  );
}

export function checkOperationCount(count: number): void {
  if (count > MAX_OPERATIONS_PER_MESSAGE) {
    throw new ResourceExhaustedError(
      `a batch of ${count} operations is over the limit of ${MAX_OPERATIONS_PER_MESSAGE} per message`,
    );
  }
}

/**
 * A unary Batch reply cannot be split: a result that would take it past
 * MAX_RESULT_BYTES is replaced by an error asking for it on its own.
 */
export function capReply(results: OperationResult[]): OperationResult[] {
  let bytes = 0;
  return results.map((result) => {
    bytes += resultBytes(result);
    if (bytes <= MAX_RESULT_BYTES) return result;
    const error = new ReplyTooLargeError(
      `this result would take the Batch reply past ${MAX_RESULT_BYTES} bytes; ask for it in a smaller batch`,
    );
    return { error: toOperationError(error) };
  });
}
