// Encodes the messages of the Pipe stream (BatchRequest and BatchReply,
// storage.proto) by hand; see pipe-decode.ts for why, and for the reverse.
import protobuf from "protobufjs/minimal.js";
import type { BatchReply } from "./generated/binring/v1/BatchReply.js";
import type { BatchRequest } from "./generated/binring/v1/BatchRequest.js";
import type { ClaimRequest } from "./generated/binring/v1/ClaimRequest.js";
import type { GetReply } from "./generated/binring/v1/GetReply.js";
import type { Operation } from "./generated/binring/v1/Operation.js";
import type { OperationError } from "./generated/binring/v1/OperationError.js";
import type { OperationResult } from "./generated/binring/v1/OperationResult.js";
import type { SetRequest } from "./generated/binring/v1/SetRequest.js";
import type { Stamp } from "./generated/binring/v1/Stamp.js";
import type { Target } from "./generated/binring/v1/Target.js";
import type { WriteReply } from "./generated/binring/v1/WriteReply.js";
import type { WriteRequest } from "./generated/binring/v1/WriteRequest.js";
import {
  ENTRY_KIND_NUMBERS,
  LENGTH_DELIMITED,
  REASON_NUMBERS,
  TWO_POW_32,
  TWO_POW_64,
  tag,
  type Uint64,
  VARINT,
  type Writer,
} from "./pipe-format.js";

// Fields holding their proto3 default are left out, as protobuf encoders do.

function writeString(w: Writer, field: number, value: string | undefined): void {
  if (value) w.uint32(tag(field, LENGTH_DELIMITED)).string(value);
}

function writeBool(w: Writer, field: number, value: boolean | undefined): void {
  if (value) w.uint32(tag(field, VARINT)).bool(true);
}

function writeUint32(w: Writer, field: number, value: number | undefined): void {
  if (value) w.uint32(tag(field, VARINT)).uint32(value);
}

/** A uint64 given as proto-loader takes it (a decimal string, a number or a Long). */
function writeUint64(w: Writer, field: number, value: Uint64): void {
  if (value === undefined || value === 0 || value === "0" || value === "") return;
  const source = typeof value === "number" ? value : String(value);
  const n = Number(source);
  if (n >= 0 && Number.isSafeInteger(n)) {
    w.uint32(tag(field, VARINT));
    if (n < TWO_POW_32) w.uint32(n);
    else w.uint64(n);
    return;
  }
  // Exact for any integer, a number past 2^53 included; throws for anything else.
  const big = BigInt(source);
  if (big < 0n || big >= TWO_POW_64)
    throw new RangeError(`uint64 field ${field} out of range: ${String(value)}`);
  w.uint32(tag(field, VARINT));
  w.uint64({ low: Number(big & 0xffffffffn), high: Number(big >> 32n), unsigned: true } as protobuf.Long);
}

function writeMessage<T>(
  w: Writer,
  field: number,
  value: T | null | undefined,
  write: (w: Writer, v: T) => void,
): void {
  if (value == null) return;
  w.uint32(tag(field, LENGTH_DELIMITED)).fork();
  write(w, value);
  w.ldelim();
}

function writeTarget(w: Writer, m: Target): void {
  writeString(w, 1, m.bin);
  writeUint64(w, 2, m.epoch);
  writeBool(w, 3, m.requireReady);
}

function writeStamp(w: Writer, m: Stamp): void {
  writeUint64(w, 1, m.clock);
  writeString(w, 2, m.writer);
  writeUint32(w, 3, m.seq);
}

function writeSetRequest(w: Writer, m: SetRequest): void {
  writeMessage(w, 1, m.target, writeTarget);
  writeString(w, 2, m.key);
  writeString(w, 3, m.value);
  writeMessage(w, 4, m.stamp, writeStamp);
  writeUint64(w, 5, m.atLeast);
  writeString(w, 6, m.writer);
  writeUint32(w, 7, m.seq);
  writeString(w, 8, m.claim);
  writeStrings(w, 9, m.laterReplicas);
}

function writeWriteRequest(w: Writer, m: WriteRequest): void {
  writeUint32(w, 1, m.kind === undefined ? 0 : (ENTRY_KIND_NUMBERS.get(m.kind) ?? 0));
  writeMessage(w, 2, m.entry, writeSetRequest);
  writeStrings(w, 3, m.replicas);
  writeUint32(w, 4, m.coordinator);
  writeBool(w, 5, m.retry);
  writeUint32(w, 6, m.timeoutMs);
}

function writeClaimRequest(w: Writer, m: ClaimRequest): void {
  writeMessage(w, 1, m.target, writeTarget);
  writeString(w, 2, m.writer);
  writeUint32(w, 3, m.seq);
  writeString(w, 4, m.claim);
}

/** GetRequest and ListGetRequest: target, key. */
function writeKeyRequest(w: Writer, m: { target?: Target | null; key?: string }): void {
  writeMessage(w, 1, m.target, writeTarget);
  writeString(w, 2, m.key);
}

/** PatternRequest: target, prefix, suffix. */
function writePatternRequest(
  w: Writer,
  m: { target?: Target | null; prefix?: string; suffix?: string },
): void {
  writeMessage(w, 1, m.target, writeTarget);
  writeString(w, 2, m.prefix);
  writeString(w, 3, m.suffix);
}

function writeOperation(w: Writer, m: Operation): void {
  if (m.get) writeMessage(w, 1, m.get, writeKeyRequest);
  else if (m.set) writeMessage(w, 2, m.set, writeSetRequest);
  else if (m.keys) writeMessage(w, 3, m.keys, writePatternRequest);
  else if (m.listGet) writeMessage(w, 4, m.listGet, writeKeyRequest);
  else if (m.listAppend) writeMessage(w, 5, m.listAppend, writeSetRequest);
  else if (m.listRemove) writeMessage(w, 6, m.listRemove, writeSetRequest);
  else if (m.listKeys) writeMessage(w, 7, m.listKeys, writePatternRequest);
  else if (m.clock)
    writeMessage(w, 8, m.clock, (w, c) => {
      writeMessage(w, 1, c.target, writeTarget);
      writeUint64(w, 2, c.atLeast);
      writeBool(w, 3, c.raiseOnly);
    });
  else if (m.write) writeMessage(w, 9, m.write, writeWriteRequest);
  else if (m.claim) writeMessage(w, 10, m.claim, writeClaimRequest);
  else if (m.release)
    writeMessage(w, 11, m.release, (w, c) => {
      writeMessage(w, 1, c.target, writeTarget);
      writeString(w, 2, c.key);
      writeMessage(w, 3, c.stamp, writeStamp);
    });
}

function writeGetReply(w: Writer, m: GetReply): void {
  writeBool(w, 1, m.found);
  writeString(w, 2, m.value);
  writeMessage(w, 3, m.stamp, writeStamp);
}

function writeWriteReply(w: Writer, m: WriteReply): void {
  writeMessage(w, 1, m.stamp, writeStamp);
  writeUint64(w, 2, m.removed);
  writeBool(w, 3, m.ready);
  writeBool(w, 4, m.superseded);
  writeUint64(w, 5, m.clock);
  writeUint32(w, 6, m.restamps);
}

function writeStrings(w: Writer, field: number, values: readonly string[] | undefined): void {
  // Repeated strings keep empty ones: their count and position are data.
  for (const value of values ?? []) w.uint32(tag(field, LENGTH_DELIMITED)).string(value);
}

function writeError(w: Writer, m: OperationError): void {
  writeUint32(w, 1, m.code);
  writeString(w, 2, m.message);
  // An enum is a varint; a reason this version does not know goes as UNSPECIFIED.
  writeUint32(w, 3, m.reason === undefined ? 0 : (REASON_NUMBERS.get(m.reason) ?? 0));
  writeUint64(w, 4, m.callerEpoch);
  writeUint64(w, 5, m.currentEpoch);
  writeString(w, 6, m.replica);
  writeMessage(w, 7, m.stamp, writeStamp);
  writeString(w, 8, m.claim);
}

function writeResult(w: Writer, m: OperationResult): void {
  if (m.error) writeMessage(w, 1, m.error, writeError);
  else if (m.get) writeMessage(w, 2, m.get, writeGetReply);
  else if (m.write) writeMessage(w, 3, m.write, writeWriteReply);
  else if (m.keys) writeMessage(w, 4, m.keys, (w, k) => writeStrings(w, 1, k.keys));
  else if (m.listGet) writeMessage(w, 5, m.listGet, (w, l) => writeStrings(w, 1, l.values));
  else if (m.clock) writeMessage(w, 6, m.clock, (w, c) => writeUint64(w, 1, c.clock));
  else if (m.claim) writeMessage(w, 7, m.claim, (w, c) => writeMessage(w, 1, c.stamp, writeStamp));
  else if (m.release) writeMessage(w, 8, m.release, () => undefined);
}

export function encodeBatchRequest(m: BatchRequest): Buffer {
  const w = protobuf.Writer.create();
  for (const operation of m.operations ?? []) writeMessage(w, 1, operation, writeOperation);
  writeUint32(w, 2, m.id);
  return w.finish() as Buffer;
}

export function encodeBatchReply(m: BatchReply): Buffer {
  const w = protobuf.Writer.create();
  for (const result of m.results ?? []) writeMessage(w, 1, result, writeResult);
  writeUint32(w, 2, m.id);
  writeBool(w, 3, m.partial);
  return w.finish() as Buffer;
}
