// An upper bound on an operation's encoded size: what BackendChannel fills a
// batch by (MESSAGE_BUDGET_BYTES). It walks every field rather than listing
// the kinds that carry large strings: an operation kind the bound missed went
// out 65 at a time in one message past the frame limit, and the backend
// closed the link on every retry.
import type { Operation } from "@binring/core";
import { utf8Bound } from "@binring/core";

/** A field's tag and length prefix, at most. */
const FIELD_OVERHEAD_BYTES = 8;
/** A number, bool or enum: a tag and a 64-bit varint, at most. */
const SCALAR_BYTES = 11;

export function operationBytes(operation: Operation): number {
  return fieldBytes(operation);
}

function fieldBytes(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === "string") return FIELD_OVERHEAD_BYTES + utf8Bound(value);
  if (value instanceof Uint8Array) return FIELD_OVERHEAD_BYTES + value.length;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + fieldBytes(item), 0);
  if (typeof value === "object") {
    let sum = FIELD_OVERHEAD_BYTES;
    for (const field of Object.values(value)) sum += fieldBytes(field);
    return sum;
  }
  return SCALAR_BYTES;
}
