// What the Pipe codec's encoder (pipe-encode.ts) and decoder (pipe-decode.ts)
// share: the wire types, field tags and ErrorReason numbering.
import type protobuf from "protobufjs/minimal.js";
import { EntryKind, type EntryKind__Output } from "./generated/binring/v1/EntryKind.js";
import { ErrorReason, type ErrorReason__Output } from "./generated/binring/v1/ErrorReason.js";

export type Reader = protobuf.Reader;
export type Writer = protobuf.Writer;
export type Uint64 = number | string | { toString(): string } | undefined;

export const VARINT = 0;
export const LENGTH_DELIMITED = 2;
export const TWO_POW_32 = 4294967296;
export const TWO_POW_64 = 1n << 64n;

/** ErrorReason's names by number: proto-loader-gen-types lists them in the proto's order, numbered 0, 1, 2... */
export const REASONS = Object.keys(ErrorReason) as ErrorReason__Output[];
/** An ErrorReason as proto-loader takes it (its name or its number) to its number. */
export const REASON_NUMBERS: ReadonlyMap<string | number, number> = new Map(
  REASONS.flatMap((name, number): [string | number, number][] => [
    [name, number],
    [number, number],
  ]),
);

export function tag(field: number, wireType: number): number {
  return (field << 3) | wireType;
}

/** EntryKind's names by number, and the reverse (as REASONS and REASON_NUMBERS). */
export const ENTRY_KINDS = Object.keys(EntryKind) as EntryKind__Output[];
export const ENTRY_KIND_NUMBERS: ReadonlyMap<string | number, number> = new Map(
  ENTRY_KINDS.flatMap((name, number): [string | number, number][] => [
    [name, number],
    [number, number],
  ]),
);
