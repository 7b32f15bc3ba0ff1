// The gRPC wire: loads packages/core/proto/binring/v1 and converts between wire messages and
// core types. uint64 travels as a decimal string (proto-loader's `longs:
// String`) and is a bigint everywhere else.
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import type { Entry, EntryKind } from "./entry.js";
import {
  BinringError,
  type ErrorDetails,
  errorDetails,
  errorFromStatus,
  InvalidArgumentError,
  isErrorReason,
  StatusCode,
  TimeoutError,
} from "./errors.js";
import type { Entry__Output, Entry as WireEntry } from "./generated/binring/v1/Entry.js";
import type { EntryKind__Output } from "./generated/binring/v1/EntryKind.js";
import type { OperationError, OperationError__Output } from "./generated/binring/v1/OperationError.js";
import type { Stamp__Output, Stamp as WireStamp } from "./generated/binring/v1/Stamp.js";
import type { ProtoGrpcType as KeeperProtoGrpcType } from "./generated/keeper.js";
import type { ProtoGrpcType } from "./generated/storage.js";
import { decodeApplyRequest, decodeBatchReply, decodeBatchRequest } from "./pipe-decode.js";
import { encodeBatchReply, encodeBatchRequest } from "./pipe-encode.js";
import type { Stamp } from "./stamp.js";

export const PROTO_DIR = fileURLToPath(new URL("../proto/", import.meta.url));

const LOADER_OPTIONS: protoLoader.Options = {
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
};

let loaded: (ProtoGrpcType & KeeperProtoGrpcType) | undefined;

/**
 * The binring.v1 package (Storage and Keeper services), loaded once per
 * process. Storage.Pipe, the SDK's data path, encodes and decodes its
 * messages with pipe-encode.ts and pipe-decode.ts, and StorageControl.Apply decodes its
 * requests with pipe-decode.ts: the same wire format, at a fraction of the CPU.
 */
export function loadProtocol(): (ProtoGrpcType & KeeperProtoGrpcType)["binring"]["v1"] {
  if (!loaded) {
    const definition = protoLoader.loadSync(
      ["binring/v1/storage.proto", "binring/v1/keeper.proto"],
      LOADER_OPTIONS,
    );
    const pipe = (definition["binring.v1.Storage"] as protoLoader.ServiceDefinition).Pipe!;
    Object.assign(pipe, {
      requestSerialize: encodeBatchRequest,
      requestDeserialize: decodeBatchRequest,
      responseSerialize: encodeBatchReply,
      responseDeserialize: decodeBatchReply,
    });
    const apply = (definition["binring.v1.StorageControl"] as protoLoader.ServiceDefinition).Apply!;
    apply.requestDeserialize = decodeApplyRequest;
    loaded = grpc.loadPackageDefinition(definition) as unknown as ProtoGrpcType & KeeperProtoGrpcType;
  }
  return loaded.binring.v1;
}

/** Parses a uint64 that arrived as a decimal string. */
export function wireToBigint(value: string | undefined): bigint {
  return value ? BigInt(value) : 0n;
}

export function bigintToWire(value: bigint): string {
  return value.toString();
}

export function stampToWire(stamp: Stamp): WireStamp {
  return { clock: bigintToWire(stamp.clock), writer: stamp.writer, seq: stamp.seq };
}

export function stampFromWire(stamp: Stamp__Output): Stamp {
  return { clock: wireToBigint(stamp.clock), writer: stamp.writer, seq: stamp.seq };
}

const KIND_TO_WIRE: Record<EntryKind, EntryKind__Output> = {
  set: "ENTRY_KIND_SET",
  append: "ENTRY_KIND_APPEND",
  remove: "ENTRY_KIND_REMOVE",
};

export function entryToWire(entry: Entry): WireEntry {
  return {
    bin: entry.bin,
    key: entry.key,
    kind: KIND_TO_WIRE[entry.kind],
    value: entry.value,
    stamp: stampToWire(entry.stamp),
  };
}

/** Throws InvalidArgumentError naming the field when the message is incomplete. */
export function entryFromWire(entry: Entry__Output, field = "entry"): Entry {
  const kind = (Object.keys(KIND_TO_WIRE) as EntryKind[]).find((k) => KIND_TO_WIRE[k] === entry.kind);
  if (!kind) throw new InvalidArgumentError(`${field}.kind must be SET, APPEND or REMOVE, got ${entry.kind}`);
  if (!entry.stamp) throw new InvalidArgumentError(`${field}.stamp is required`);
  return { bin: entry.bin, key: entry.key, kind, value: entry.value, stamp: stampFromWire(entry.stamp) };
}

/**
 * Trailing metadata of a failed unary or streaming call: the error's reason
 * (storage.proto ErrorReason), and a stale view's epochs. Metadata rather than
 * the status' details message (grpc-status-details-bin): grpc-js sends and
 * receives it on every call and stream as it is, with no google.rpc.Status
 * encoding to add on either side, and an older peer simply ignores it.
 */
const REASON_KEY = "binring-reason";
const CALLER_EPOCH_KEY = "binring-caller-epoch";
const CURRENT_EPOCH_KEY = "binring-current-epoch";

/** A BinringError as a gRPC error a handler can pass to its callback, its reason in the trailers. */
export function toServiceError(error: unknown): Partial<grpc.StatusObject> {
  if (!(error instanceof BinringError)) {
    const message = error instanceof Error ? error.message : String(error);
    return { code: StatusCode.INTERNAL, details: `internal error: ${message}` };
  }
  const { reason, callerEpoch, currentEpoch } = errorDetails(error);
  const metadata = new grpc.Metadata();
  if (reason) metadata.set(REASON_KEY, reason);
  if (callerEpoch !== undefined) metadata.set(CALLER_EPOCH_KEY, bigintToWire(callerEpoch));
  if (currentEpoch !== undefined) metadata.set(CURRENT_EPOCH_KEY, bigintToWire(currentEpoch));
  return { code: error.code, details: error.message, metadata };
}

/** A failed operation of a batch, as its OperationError. */
export function toOperationError(error: unknown): OperationError {
  const status = toServiceError(error);
  const details = error instanceof BinringError ? errorDetails(error) : {};
  const { progress } = details;
  return {
    code: status.code ?? StatusCode.INTERNAL,
    message: status.details ?? "internal error",
    reason: details.reason,
    callerEpoch: details.callerEpoch === undefined ? undefined : bigintToWire(details.callerEpoch),
    currentEpoch: details.currentEpoch === undefined ? undefined : bigintToWire(details.currentEpoch),
    replica: progress?.replica,
    stamp: progress?.stamp && stampToWire(progress.stamp),
    claim: progress?.claim,
  };
}

/** The error class a batch's OperationError stands for. */
export function fromOperationError(error: OperationError__Output): BinringError {
  const stale = error.reason === "ERROR_REASON_STALE_VIEW";
  return errorFromStatus(error.code, error.message, {
    reason: error.reason,
    callerEpoch: stale ? wireToBigint(error.callerEpoch) : undefined,
    currentEpoch: stale ? wireToBigint(error.currentEpoch) : undefined,
    progress: error.replica
      ? {
          replica: error.replica,
          stamp: error.stamp ? stampFromWire(error.stamp) : undefined,
          claim: error.claim || undefined,
        }
      : undefined,
  });
}

/** The reason and epochs in a failed call's trailers; empty from a peer that sends none. */
function detailsFromMetadata(metadata: grpc.Metadata | undefined): ErrorDetails {
  const first = (key: string) => {
    const value = metadata?.get(key)[0];
    return typeof value === "string" ? value : undefined;
  };
  const reason = first(REASON_KEY);
  if (!isErrorReason(reason)) return {};
  const callerEpoch = first(CALLER_EPOCH_KEY);
  const currentEpoch = first(CURRENT_EPOCH_KEY);
  return {
    reason,
    callerEpoch: callerEpoch === undefined ? undefined : wireToBigint(callerEpoch),
    currentEpoch: currentEpoch === undefined ? undefined : wireToBigint(currentEpoch),
  };
}

/** grpc-js ends a failed connection's details with "Resolution note: " even when it has no note to give. */
function withoutEmptyNote(details: string): string {
  return details.replace(/\s*Resolution note:\s*$/, "");
}

/** Maps a failed gRPC call back to the binring error class it stands for, by its code and trailers. */
export function fromServiceError(error: grpc.ServiceError, address: string): BinringError {
  const details = detailsFromMetadata(error.metadata);
  const cause = { cause: error };
  if (error.code === grpc.status.UNAVAILABLE || error.code === grpc.status.CANCELLED) {
    return errorFromStatus(
      StatusCode.UNAVAILABLE,
      `backend ${address} unavailable: ${withoutEmptyNote(error.details)}`,
      details,
      cause,
    );
  }
  if (error.code === grpc.status.DEADLINE_EXCEEDED) {
    // Sent by the backend with a reason of its own (an outcome unknown there), or grpc-js's own deadline.
    if (details.reason) return errorFromStatus(error.code, error.details, details, cause);
    return new TimeoutError(`backend ${address} did not answer in time`, cause);
  }
  return errorFromStatus(error.code, error.details, details, cause);
}
