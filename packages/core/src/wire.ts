// The gRPC wire: loads proto/binring/v1 and converts between wire messages and
// core types. uint64 travels as a decimal string (proto-loader's `longs:
// String`) and is a bigint everywhere else.
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import type { Entry, EntryKind } from "./entry.js";
import { BinringError, errorFromStatus, InvalidArgumentError, StatusCode } from "./errors.js";
import type { Entry__Output, Entry as WireEntry } from "./generated/binring/v1/Entry.js";
import type { EntryKind__Output } from "./generated/binring/v1/EntryKind.js";
import type { Stamp__Output, Stamp as WireStamp } from "./generated/binring/v1/Stamp.js";
import type { ProtoGrpcType as KeeperProtoGrpcType } from "./generated/keeper.js";
import type { ProtoGrpcType } from "./generated/storage.js";
import { decodeBatchReply, decodeBatchRequest, encodeBatchReply, encodeBatchRequest } from "./pipe-codec.js";
import type { Stamp } from "./stamp.js";

export const PROTO_DIR = fileURLToPath(new URL("../../../proto/", import.meta.url));

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
 * messages with pipe-codec.ts: the same wire format, at a fraction of the CPU.
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

/** A BinringError as a gRPC error a handler can pass to its callback. */
export function toServiceError(error: unknown): Partial<grpc.StatusObject> {
  if (error instanceof BinringError) return { code: error.code, details: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { code: StatusCode.INTERNAL, details: `internal error: ${message}` };
}

/** Maps a failed gRPC call back to the binring error class it stands for. */
export function fromServiceError(error: grpc.ServiceError, address: string): BinringError {
  if (error.code === grpc.status.UNAVAILABLE || error.code === grpc.status.CANCELLED) {
    return errorFromStatus(StatusCode.UNAVAILABLE, `backend ${address} unavailable: ${error.details}`);
  }
  if (error.code === grpc.status.DEADLINE_EXCEEDED) {
    return errorFromStatus(StatusCode.DEADLINE_EXCEEDED, `backend ${address} did not answer in time`);
  }
  return errorFromStatus(error.code, error.details);
}
