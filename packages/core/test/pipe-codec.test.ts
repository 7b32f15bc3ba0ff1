// The Pipe codec speaks exactly the proto's wire format and gives exactly the
// shapes proto-loader gives: every message below is encoded by each side and
// decoded by the other, and must come out as proto-loader's own round trip.
// Messages cover every operation and result kind (errors with every reason), defaults, uint64s around
// 2^32, 2^53 and 2^64, empty and non-ASCII strings; malformed bytes throw. The Apply request's
// decoder (the entries a repair or fill copies) is held to proto-loader's the same way.
import * as protoLoader from "@grpc/proto-loader";
import { describe, expect, it } from "vitest";
import { applyRequestOfFrames, encodeEntryBatch, splitEntryFrames } from "../src/entry-frames.js";
import { EntryKind } from "../src/generated/binring/v1/EntryKind.js";
import { ErrorReason } from "../src/generated/binring/v1/ErrorReason.js";
import type { ApplyRequest, BatchReply, BatchRequest } from "../src/index.js";
import { decodeApplyRequest, decodeBatchReply, decodeBatchRequest } from "../src/pipe-decode.js";
import { encodeBatchReply, encodeBatchRequest } from "../src/pipe-encode.js";
import { PROTO_DIR } from "../src/wire.js";

/** proto-loader's own (de)serializers for Pipe and Apply, with the options binring loads the protocol with. */
const definition = protoLoader.loadSync("binring/v1/storage.proto", {
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
});
const reference = (definition["binring.v1.Storage"] as protoLoader.ServiceDefinition).Pipe!;
const applyReference = (definition["binring.v1.StorageControl"] as protoLoader.ServiceDefinition).Apply!;

const UINT64S = [
  "0",
  "1",
  "300",
  "4294967295",
  "4294967296",
  "9007199254740991",
  "9007199254740993",
  "18446744073709551615",
];
const STRINGS = ["", "k", "a|;b", "ключ", "🦊 fox", "x".repeat(300)];
const UINT32S = [0, 1, 127, 128, 4294967295];
/** Every reason, so each name's number is checked against proto-loader's. */
const REASONS = Object.keys(ErrorReason) as (keyof typeof ErrorReason)[];
const KINDS = Object.keys(EntryKind) as (keyof typeof EntryKind)[];

function pick<T>(values: readonly T[], i: number): T {
  return values[i % values.length]!;
}

function target(i: number) {
  return i % 7 === 6
    ? null
    : { bin: pick(STRINGS, i + 1), epoch: pick(UINT64S, i), requireReady: i % 2 === 0 };
}

function stamp(i: number) {
  return i % 5 === 4
    ? null
    : { clock: pick(UINT64S, i + 3), writer: "0123456789abcdef", seq: pick(UINT32S, i) };
}

function setRequest(i: number) {
  return {
    target: target(i),
    key: pick(STRINGS, i),
    value: pick(STRINGS, i + 2),
    stamp: stamp(i),
    atLeast: pick(UINT64S, i + 5),
    writer: i % 2 ? "fedcba9876543210" : "",
    seq: pick(UINT32S, i + 1),
    claim: i % 3 ? "" : "00ff00ff00ff00ff",
    laterReplicas: STRINGS.slice(0, i % 4),
  };
}

function operation(i: number): BatchRequest["operations"] extends (infer O)[] | undefined ? O : never {
  const pattern = { target: target(i), prefix: pick(STRINGS, i), suffix: pick(STRINGS, i + 1) };
  switch (i % 11) {
    case 0:
      return { get: { target: target(i), key: pick(STRINGS, i) } };
    case 10:
      return { release: { target: target(i), key: pick(STRINGS, i + 3), stamp: stamp(i) } };
    case 8:
      return {
        write: {
          kind: pick(KINDS, Math.floor(i / 10)),
          entry: i % 4 === 0 ? null : setRequest(i),
          replicas: STRINGS.slice(i % STRINGS.length),
          coordinator: pick(UINT32S, i),
          retry: i % 3 === 0,
          timeoutMs: pick(UINT32S, i + 2),
        },
      };
    case 9:
      return {
        claim: {
          target: target(i),
          writer: "0123456789abcdef",
          seq: pick(UINT32S, i),
          claim: pick(STRINGS, i),
        },
      };
    case 1:
      return { set: setRequest(i) };
    case 2:
      return { keys: pattern };
    case 3:
      return { listGet: { target: target(i), key: pick(STRINGS, i + 4) } };
    case 4:
      return { listAppend: setRequest(i) };
    case 5:
      return { listRemove: setRequest(i) };
    case 6:
      return { listKeys: pattern };
    default:
      return { clock: { target: target(i), atLeast: pick(UINT64S, i), raiseOnly: i % 3 === 0 } };
  }
}

function result(i: number): BatchReply["results"] extends (infer R)[] | undefined ? R : never {
  switch (i % 8) {
    case 7:
      return { release: {} };
    case 0:
      return {
        error: {
          code: pick(UINT32S, i),
          message: pick(STRINGS, i),
          reason: pick(REASONS, i / 7),
          callerEpoch: pick(UINT64S, i / 7),
          currentEpoch: pick(UINT64S, i / 7 + 1),
          replica: pick(STRINGS, i / 7 + 2),
          stamp: stamp(i / 7),
          claim: pick(STRINGS, i / 7 + 3),
        },
      };
    case 6:
      return { claim: { stamp: stamp(i) } };
    case 1:
      return { get: { found: i % 2 === 0, value: pick(STRINGS, i), stamp: stamp(i) } };
    case 2:
      return {
        write: {
          stamp: stamp(i),
          removed: pick(UINT64S, i),
          ready: i % 3 === 0,
          superseded: i % 4 === 0,
          clock: pick(UINT64S, i + 1),
          restamps: pick(UINT32S, i),
        },
      };
    case 3:
      return { keys: { keys: STRINGS.slice(0, i % STRINGS.length) } };
    case 4:
      return { listGet: { values: STRINGS.slice(i % STRINGS.length) } };
    default:
      return { clock: { clock: pick(UINT64S, i) } };
  }
}

const requests: BatchRequest[] = Array.from({ length: 80 }, (_, n) => ({
  id: pick(UINT32S, n),
  operations: Array.from({ length: n % 12 }, (_, j) => operation(n * 7 + j)),
}));
const replies: BatchReply[] = Array.from({ length: 80 }, (_, n) => ({
  id: pick(UINT32S, n + 2),
  results: Array.from({ length: n % 12 }, (_, j) => result(n * 5 + j)),
}));

const applyRequests: ApplyRequest[] = Array.from({ length: 40 }, (_, n) => ({
  epoch: pick(UINT64S, n),
  entries: Array.from({ length: n % 9 }, (_, j) => ({
    bin: pick(STRINGS, n + j),
    key: pick(STRINGS, n + j + 1),
    kind: pick(KINDS, n + j),
    value: pick(STRINGS, n + j + 2),
    stamp: stamp(n + j),
  })),
}));

describe("Pipe codec", () => {
  it("encodes BatchRequest as proto-loader does and decodes it to the same shapes", () => {
    for (const request of requests) {
      const expected = reference.requestDeserialize(reference.requestSerialize(request));
      const encoded = encodeBatchRequest(request);
      expect(reference.requestDeserialize(encoded)).toEqual(expected);
      expect(decodeBatchRequest(encoded)).toEqual(expected);
      expect(decodeBatchRequest(reference.requestSerialize(request))).toEqual(expected);
    }
  });

  it("encodes BatchReply as proto-loader does and decodes it to the same shapes", () => {
    for (const reply of replies) {
      const expected = reference.responseDeserialize(reference.responseSerialize(reply));
      const encoded = encodeBatchReply(reply);
      expect(reference.responseDeserialize(encoded)).toEqual(expected);
      expect(decodeBatchReply(encoded)).toEqual(expected);
      expect(decodeBatchReply(reference.responseSerialize(reply))).toEqual(expected);
    }
  });

  it("takes a uint64 given as a number, past 2^53 too, and refuses one no uint64 can hold", () => {
    const clockAtLeast = (atLeast: number | string): BatchRequest => ({
      id: 1,
      operations: [{ clock: { target: null, atLeast, raiseOnly: false } }],
    });
    for (const atLeast of [2 ** 32 + 5, 2 ** 53 - 1, 2 ** 60, 2 ** 63]) {
      const request = clockAtLeast(atLeast);
      const expected = reference.requestDeserialize(reference.requestSerialize(request));
      expect(decodeBatchRequest(encodeBatchRequest(request))).toEqual(expected);
      expect(expected).toMatchObject({ operations: [{ clock: { atLeast: BigInt(atLeast).toString() } }] });
    }
    for (const atLeast of [-1, 1.5, 2 ** 64, "-5", "18446744073709551616", "x"]) {
      expect(() => encodeBatchRequest(clockAtLeast(atLeast)), String(atLeast)).toThrow();
    }
  });

  it("keeps the number of a write's kind unknown here, as proto-loader does, so the refusal can name it", () => {
    const request = {
      id: 1,
      operations: [{ write: { kind: 9 as unknown as "ENTRY_KIND_SET", entry: null } }],
    };
    const decoded = decodeBatchRequest(reference.requestSerialize(request));
    expect(decoded.operations[0]!.write!.kind).toBe("9");
  });

  it("throws on malformed bytes instead of returning a made-up message", () => {
    const encoded = encodeBatchRequest(requests[11]!);
    expect(() => decodeBatchRequest(encoded.subarray(0, encoded.length - 3))).toThrow();
    // A length prefix that claims more bytes than there are.
    expect(() => decodeBatchRequest(Uint8Array.from([0x0a, 0x7f, 0x0a, 0x00]))).toThrow();
    // Wire type 7 does not exist.
    expect(() => decodeBatchReply(Uint8Array.from([0x0f]))).toThrow();
  });
});

describe("Apply request decoder", () => {
  it("decodes what proto-loader encodes, and what a keeper relays, to proto-loader's shapes", () => {
    for (const request of applyRequests) {
      const encoded = applyReference.requestSerialize(request);
      expect(decodeApplyRequest(encoded)).toEqual(applyReference.requestDeserialize(encoded));
    }
    const entries = [
      { bin: "b", key: "k", kind: "set", value: "v", stamp: { clock: 2n ** 64n - 1n, writer: "w", seq: 7 } },
      { bin: "ключ", key: "", kind: "remove", value: "🦊", stamp: { clock: 0n, writer: "", seq: 0 } },
    ] as const;
    const relayed = applyRequestOfFrames(splitEntryFrames(encodeEntryBatch(entries)), 2n ** 64n - 1n);
    const decoded = decodeApplyRequest(relayed);
    expect(decoded).toEqual(applyReference.requestDeserialize(relayed));
    expect(decoded.epoch).toBe("18446744073709551615");
    expect(decoded.entries[0]!.stamp!.clock).toBe("18446744073709551615");
  });

  it("keeps the number of a kind unknown here, so the refusal can name it", () => {
    const encoded = applyReference.requestSerialize({
      entries: [{ bin: "b", key: "k", kind: 9 as unknown as "ENTRY_KIND_SET", value: "v" }],
    });
    expect(decodeApplyRequest(encoded).entries[0]!.kind).toBe("9");
  });

  it("throws on malformed bytes", () => {
    const encoded = applyReference.requestSerialize(applyRequests[8]!);
    expect(() => decodeApplyRequest(encoded.subarray(0, encoded.length - 3))).toThrow();
    expect(() => decodeApplyRequest(Uint8Array.from([0x0a, 0x7f, 0x0a, 0x00]))).toThrow();
  });
});
