// Decodes (and pipe-encode.ts encodes) the messages of the Pipe stream (BatchRequest and
// BatchReply, storage.proto) — the SDK's data path — by hand, on protobufjs'
// Reader and Writer; and decodes ApplyRequest, which brings a backend every
// entry a repair or fill copies to it. The wire format is exactly the proto's; the JavaScript
// shapes are exactly what proto-loader gives every other call (longs as
// decimal strings, defaults filled in, the oneof's name in `op`/`result`).
//
// Why by hand: proto-loader converts each message to and from a protobufjs
// message object on top of encoding it (fromObject/toObject), and passes every
// uint64 through a Long and a decimal string conversion. For one Pipe message
// of 10 gets that was 9.5 µs to encode and 6.2 µs to decode on the client and
// 6.2 + 14.8 µs on the backend, against a get's ~25 µs of CPU in all
// (measured on this project's machine). A backend being filled spent a fifth
// of its CPU decoding Apply requests through proto-loader. Every other call
// keeps proto-loader.
import protobuf from "protobufjs/minimal.js";
import type { ApplyRequest__Output } from "./generated/binring/v1/ApplyRequest.js";
import type { BatchReply__Output } from "./generated/binring/v1/BatchReply.js";
import type { BatchRequest__Output } from "./generated/binring/v1/BatchRequest.js";
import type { ClaimReply__Output } from "./generated/binring/v1/ClaimReply.js";
import type { ClaimRequest__Output } from "./generated/binring/v1/ClaimRequest.js";
import type { Entry__Output } from "./generated/binring/v1/Entry.js";
import type { EntryKind__Output } from "./generated/binring/v1/EntryKind.js";
import type { GetReply__Output } from "./generated/binring/v1/GetReply.js";
import type { Operation__Output } from "./generated/binring/v1/Operation.js";
import type { OperationError__Output } from "./generated/binring/v1/OperationError.js";
import type { OperationResult__Output } from "./generated/binring/v1/OperationResult.js";
import type { ReleaseRequest__Output } from "./generated/binring/v1/ReleaseRequest.js";
import type { SetRequest__Output } from "./generated/binring/v1/SetRequest.js";
import type { Stamp__Output } from "./generated/binring/v1/Stamp.js";
import type { Target__Output } from "./generated/binring/v1/Target.js";
import type { WriteReply__Output } from "./generated/binring/v1/WriteReply.js";
import type { WriteRequest__Output } from "./generated/binring/v1/WriteRequest.js";
import { ENTRY_KINDS, LENGTH_DELIMITED, REASONS, type Reader, TWO_POW_32 } from "./pipe-format.js";

// Unknown fields are skipped; a malformed message throws (protobufjs' Reader
// checks every read against the buffer's end).

function readUint64(r: Reader): string {
  // A Long whenever protobufjs has the long package, which it depends on.
  const long = r.uint64() as protobuf.Long | number;
  if (typeof long === "number") return String(long);
  const low = long.low >>> 0;
  const high = long.high >>> 0;
  if (high === 0) return String(low);
  if (high < 0x200000) return String(high * TWO_POW_32 + low);
  return ((BigInt(high) << 32n) | BigInt(low)).toString();
}

/** Reads the fields of one embedded message with `read(field, wireType)`, which skips what it does not know. */
function readFields(r: Reader, end: number, read: (field: number, wireType: number) => void): void {
  while (r.pos < end) {
    const t = r.uint32();
    read(t >>> 3, t & 7);
  }
  if (r.pos !== end) throw new Error("invalid message: a field runs past its message's end");
}

function readMessage<T>(r: Reader, read: (r: Reader, end: number) => T): T {
  const length = r.uint32();
  const end = r.pos + length;
  if (end > r.len) throw new RangeError(`invalid message: length ${length} runs past the buffer`);
  return read(r, end);
}

function readTarget(r: Reader, end: number): Target__Output {
  const m: Target__Output = { bin: "", epoch: "0", requireReady: false };
  readFields(r, end, (field, wireType) => {
    if (field === 1) m.bin = r.string();
    else if (field === 2) m.epoch = readUint64(r);
    else if (field === 3) m.requireReady = r.bool();
    else r.skipType(wireType);
  });
  return m;
}

function readStamp(r: Reader, end: number): Stamp__Output {
  const m: Stamp__Output = { clock: "0", writer: "", seq: 0 };
  readFields(r, end, (field, wireType) => {
    if (field === 1) m.clock = readUint64(r);
    else if (field === 2) m.writer = r.string();
    else if (field === 3) m.seq = r.uint32();
    else r.skipType(wireType);
  });
  return m;
}

/** A kind unknown here (from a newer peer) keeps its number, which the backend refuses naming it. */
function entryKind(number: number): EntryKind__Output {
  return ENTRY_KINDS[number] ?? (String(number) as EntryKind__Output);
}

function readEntry(r: Reader, end: number): Entry__Output {
  const m: Entry__Output = { bin: "", key: "", kind: "ENTRY_KIND_UNSPECIFIED", value: "", stamp: null };
  readFields(r, end, (field, wireType) => {
    if (field === 1) m.bin = r.string();
    else if (field === 2) m.key = r.string();
    else if (field === 3) m.kind = entryKind(r.int32());
    else if (field === 4) m.value = r.string();
    else if (field === 5) m.stamp = readMessage(r, readStamp);
    else r.skipType(wireType);
  });
  return m;
}

function readSetRequest(r: Reader, end: number): SetRequest__Output {
  const m: SetRequest__Output = {
    target: null,
    key: "",
    value: "",
    stamp: null,
    atLeast: "0",
    writer: "",
    seq: 0,
    claim: "",
    laterReplicas: [],
  };
  readFields(r, end, (field, wireType) => {
    if (field === 1) m.target = readMessage(r, readTarget);
    else if (field === 2) m.key = r.string();
    else if (field === 3) m.value = r.string();
    else if (field === 4) m.stamp = readMessage(r, readStamp);
    else if (field === 5) m.atLeast = readUint64(r);
    else if (field === 6) m.writer = r.string();
    else if (field === 7) m.seq = r.uint32();
    else if (field === 8) m.claim = r.string();
    else if (field === 9) m.laterReplicas.push(r.string());
    else r.skipType(wireType);
  });
  return m;
}

function readWriteRequest(r: Reader, end: number): WriteRequest__Output {
  const m: WriteRequest__Output = {
    kind: "ENTRY_KIND_UNSPECIFIED",
    entry: null,
    replicas: [],
    coordinator: 0,
    retry: false,
    timeoutMs: 0,
  };
  readFields(r, end, (field, wireType) => {
    if (field === 1) m.kind = entryKind(r.int32());
    else if (field === 2) m.entry = readMessage(r, readSetRequest);
    else if (field === 3) m.replicas.push(r.string());
    else if (field === 4) m.coordinator = r.uint32();
    else if (field === 5) m.retry = r.bool();
    else if (field === 6) m.timeoutMs = r.uint32();
    else r.skipType(wireType);
  });
  return m;
}

function readClaimRequest(r: Reader, end: number): ClaimRequest__Output {
  const m: ClaimRequest__Output = { target: null, writer: "", seq: 0, claim: "" };
  readFields(r, end, (field, wireType) => {
    if (field === 1) m.target = readMessage(r, readTarget);
    else if (field === 2) m.writer = r.string();
    else if (field === 3) m.seq = r.uint32();
    else if (field === 4) m.claim = r.string();
    else r.skipType(wireType);
  });
  return m;
}

function readReleaseRequest(r: Reader, end: number): ReleaseRequest__Output {
  const m: ReleaseRequest__Output = { target: null, key: "", stamp: null };
  readFields(r, end, (field, wireType) => {
    if (field === 1) m.target = readMessage(r, readTarget);
    else if (field === 2) m.key = r.string();
    else if (field === 3) m.stamp = readMessage(r, readStamp);
    else r.skipType(wireType);
  });
  return m;
}

function readKeyRequest(r: Reader, end: number) {
  const m = { target: null as Target__Output | null, key: "" };
  readFields(r, end, (field, wireType) => {
    if (field === 1) m.target = readMessage(r, readTarget);
    else if (field === 2) m.key = r.string();
    else r.skipType(wireType);
  });
  return m;
}

function readPatternRequest(r: Reader, end: number) {
  const m = { target: null as Target__Output | null, prefix: "", suffix: "" };
  readFields(r, end, (field, wireType) => {
    if (field === 1) m.target = readMessage(r, readTarget);
    else if (field === 2) m.prefix = r.string();
    else if (field === 3) m.suffix = r.string();
    else r.skipType(wireType);
  });
  return m;
}

function readClockRequest(r: Reader, end: number) {
  const m = { target: null as Target__Output | null, atLeast: "0", raiseOnly: false };
  readFields(r, end, (field, wireType) => {
    if (field === 1) m.target = readMessage(r, readTarget);
    else if (field === 2) m.atLeast = readUint64(r);
    else if (field === 3) m.raiseOnly = r.bool();
    else r.skipType(wireType);
  });
  return m;
}

/** Operation's oneof members by field number; a later member on the wire replaces an earlier one. */
const OPERATIONS = [
  undefined,
  ["get", readKeyRequest],
  ["set", readSetRequest],
  ["keys", readPatternRequest],
  ["listGet", readKeyRequest],
  ["listAppend", readSetRequest],
  ["listRemove", readSetRequest],
  ["listKeys", readPatternRequest],
  ["clock", readClockRequest],
  ["write", readWriteRequest],
  ["claim", readClaimRequest],
  ["release", readReleaseRequest],
] as const;

function readOperation(r: Reader, end: number): Operation__Output {
  let m: Operation__Output = {};
  readFields(r, end, (field, wireType) => {
    const member = OPERATIONS[field];
    if (member && wireType === LENGTH_DELIMITED) {
      const [name, read] = member;
      m = { [name]: readMessage<unknown>(r, read), op: name } as Operation__Output;
    } else r.skipType(wireType);
  });
  return m;
}

function readGetReply(r: Reader, end: number): GetReply__Output {
  const m: GetReply__Output = { found: false, value: "", stamp: null };
  readFields(r, end, (field, wireType) => {
    if (field === 1) m.found = r.bool();
    else if (field === 2) m.value = r.string();
    else if (field === 3) m.stamp = readMessage(r, readStamp);
    else r.skipType(wireType);
  });
  return m;
}

function readWriteReply(r: Reader, end: number): WriteReply__Output {
  const m: WriteReply__Output = {
    stamp: null,
    removed: "0",
    ready: false,
    superseded: false,
    clock: "0",
    restamps: 0,
  };
  readFields(r, end, (field, wireType) => {
    if (field === 1) m.stamp = readMessage(r, readStamp);
    else if (field === 2) m.removed = readUint64(r);
    else if (field === 3) m.ready = r.bool();
    else if (field === 4) m.superseded = r.bool();
    else if (field === 5) m.clock = readUint64(r);
    else if (field === 6) m.restamps = r.uint32();
    else r.skipType(wireType);
  });
  return m;
}

/** KeysReply.keys and ListGetReply.values: one repeated string as field 1. */
function readStrings(r: Reader, end: number): string[] {
  const values: string[] = [];
  readFields(r, end, (field, wireType) => {
    if (field === 1) values.push(r.string());
    else r.skipType(wireType);
  });
  return values;
}

function readError(r: Reader, end: number): OperationError__Output {
  const m: OperationError__Output = {
    code: 0,
    message: "",
    reason: "ERROR_REASON_UNSPECIFIED",
    callerEpoch: "0",
    currentEpoch: "0",
    replica: "",
    stamp: null,
    claim: "",
  };
  readFields(r, end, (field, wireType) => {
    if (field === 1) m.code = r.uint32();
    else if (field === 2) m.message = r.string();
    // A reason from a newer peer, unknown here, reads as UNSPECIFIED: the class then follows from the code.
    else if (field === 3) m.reason = REASONS[r.int32()] ?? "ERROR_REASON_UNSPECIFIED";
    else if (field === 4) m.callerEpoch = readUint64(r);
    else if (field === 5) m.currentEpoch = readUint64(r);
    else if (field === 6) m.replica = r.string();
    else if (field === 7) m.stamp = readMessage(r, readStamp);
    else if (field === 8) m.claim = r.string();
    else r.skipType(wireType);
  });
  return m;
}

function readClockReply(r: Reader, end: number) {
  const m = { clock: "0" };
  readFields(r, end, (field, wireType) => {
    if (field === 1) m.clock = readUint64(r);
    else r.skipType(wireType);
  });
  return m;
}

function readClaimReply(r: Reader, end: number): ClaimReply__Output {
  const m: ClaimReply__Output = { stamp: null };
  readFields(r, end, (field, wireType) => {
    if (field === 1) m.stamp = readMessage(r, readStamp);
    else r.skipType(wireType);
  });
  return m;
}

/** A reply with no fields (ReleaseReply): anything on the wire is skipped. */
function readEmpty(r: Reader, end: number): Record<string, never> {
  readFields(r, end, (_, wireType) => r.skipType(wireType));
  return {};
}

const RESULTS = [
  undefined,
  ["error", readError],
  ["get", readGetReply],
  ["write", readWriteReply],
  ["keys", (r: Reader, end: number) => ({ keys: readStrings(r, end) })],
  ["listGet", (r: Reader, end: number) => ({ values: readStrings(r, end) })],
  ["clock", readClockReply],
  ["claim", readClaimReply],
  ["release", readEmpty],
] as const;

function readResult(r: Reader, end: number): OperationResult__Output {
  let m: OperationResult__Output = {};
  readFields(r, end, (field, wireType) => {
    const member = RESULTS[field];
    if (member && wireType === LENGTH_DELIMITED) {
      const [name, read] = member;
      m = { [name]: readMessage<unknown>(r, read), result: name } as OperationResult__Output;
    } else r.skipType(wireType);
  });
  return m;
}

export function decodeBatchRequest(buffer: Uint8Array): BatchRequest__Output {
  const r = protobuf.Reader.create(buffer);
  const m: BatchRequest__Output = { operations: [], id: 0 };
  readFields(r, r.len, (field, wireType) => {
    if (field === 1 && wireType === LENGTH_DELIMITED) m.operations.push(readMessage(r, readOperation));
    else if (field === 2) m.id = r.uint32();
    else r.skipType(wireType);
  });
  return m;
}

export function decodeBatchReply(buffer: Uint8Array): BatchReply__Output {
  const r = protobuf.Reader.create(buffer);
  const m: BatchReply__Output = { results: [], id: 0, partial: false };
  readFields(r, r.len, (field, wireType) => {
    if (field === 1 && wireType === LENGTH_DELIMITED) m.results.push(readMessage(r, readResult));
    else if (field === 2) m.id = r.uint32();
    else if (field === 3) m.partial = r.bool();
    else r.skipType(wireType);
  });
  return m;
}

export function decodeApplyRequest(buffer: Uint8Array): ApplyRequest__Output {
  const r = protobuf.Reader.create(buffer);
  const m: ApplyRequest__Output = { entries: [], epoch: "0" };
  readFields(r, r.len, (field, wireType) => {
    if (field === 1 && wireType === LENGTH_DELIMITED) m.entries.push(readMessage(r, readEntry));
    else if (field === 2) m.epoch = readUint64(r);
    else r.skipType(wireType);
  });
  return m;
}
