// A batch is filled by operationBytes (backend-channel.ts): it must bound the
// encoded size of every kind of operation, or a turn of large operations goes
// out as one message past the frame limit and the backend closes the link.
import { encodeBatchRequest, newWriterId, type Operation } from "@binring/core";
import { describe, expect, it } from "vitest";
import { operationBytes } from "../src/operation-bytes.js";

const MiB = 1024 * 1024;
const big = "é".repeat(MiB / 2);
const target = { bin: "bin-é", epoch: "18446744073709551615", requireReady: true };
const writer = newWriterId();
const stamp = { clock: "4611686018427387903", writer, seq: 4294967295 };
const entry = {
  target,
  key: big,
  value: big,
  writer,
  seq: 4294967295,
  atLeast: "1",
  stamp,
  claim: "c".repeat(64),
};
const pattern = { target, prefix: big, suffix: big };

const operations: Record<string, Operation> = {
  get: { get: { target, key: big } },
  set: { set: entry },
  listAppend: { listAppend: entry },
  listRemove: { listRemove: entry },
  listGet: { listGet: { target, key: big } },
  keys: { keys: pattern },
  listKeys: { listKeys: pattern },
  clock: { clock: { target, atLeast: "4611686018427387903" } },
  write: {
    write: {
      kind: "ENTRY_KIND_SET",
      entry,
      replicas: Array.from({ length: 8 }, (_, i) => `backend-${i}.example:${7100 + i}`),
      coordinator: 7,
      retry: true,
      timeoutMs: 60000,
    },
  },
  claim: { claim: { target, writer, seq: 4294967295, claim: "c".repeat(64) } },
};

describe("operationBytes", () => {
  it.each(Object.keys(operations))("bounds the encoded size of a %s", (kind) => {
    const operation = operations[kind]!;
    const encoded = encodeBatchRequest({ id: 1, operations: [operation] }).length;
    expect(operationBytes(operation)).toBeGreaterThanOrEqual(encoded);
    expect(operationBytes(operation)).toBeLessThan(encoded * 2 + 1024);
  });
});
