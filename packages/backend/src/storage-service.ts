// The Storage gRPC service: decodes requests, calls the BackendNode, encodes
// replies. Every failure becomes a gRPC status naming what went wrong; inside a
// Batch each operation fails on its own.

import type {
  BatchReply,
  BatchRequest__Output,
  ClockRequest__Output,
  GetRequest__Output,
  ListGetRequest__Output,
  Operation__Output,
  OperationResult,
  PatternRequest__Output,
  SetRequest__Output,
  StorageHandlers,
  Target__Output,
  WriteReply,
} from "@binring/core";
import {
  bigintToWire,
  type EntryKind,
  entryFromWire,
  entryToWire,
  InvalidArgumentError,
  loadProtocol,
  stampFromWire,
  stampToWire,
  toServiceError,
  wireToBigint,
} from "@binring/core";
import type * as grpc from "@grpc/grpc-js";
import type { Logger } from "pino";
import type { BackendNode, CallTarget } from "./backend-node.js";

/** Entries per streamed Scan message unless the caller asks otherwise. */
const DEFAULT_SCAN_BATCH = 500;
const MAX_SCAN_BATCH = 10_000;

function callTarget(target: Target__Output | null): CallTarget {
  return {
    bin: target?.bin ?? "",
    epoch: wireToBigint(target?.epoch),
    requireReady: target?.requireReady ?? false,
  };
}

/** Wraps an async handler body so that a throw becomes a status on the callback. */
function unary<Req, Res>(handle: (request: Req) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    handle(call.request).then(
      (reply) => callback(null, reply),
      (error: unknown) => callback(toServiceError(error)),
    );
  };
}

export class StorageService {
  constructor(
    private readonly node: BackendNode,
    private readonly logger: Logger,
  ) {}

  addToServer(server: grpc.Server): void {
    const handlers: StorageHandlers = {
      Get: unary((r) => this.#get(r)),
      Set: unary((r) => this.#write("set", r)),
      Keys: unary((r) => this.#keys(r)),
      ListGet: unary((r) => this.#listGet(r)),
      ListAppend: unary((r) => this.#write("append", r)),
      ListRemove: unary((r) => this.#write("remove", r)),
      ListKeys: unary((r) => this.#listKeys(r)),
      Clock: unary((r) => this.#clock(r)),
      Batch: unary(async (request) => ({ results: await this.#batch(request.operations) })),
      Pipe: (call) => this.#pipe(call),
      Apply: unary(async (request) => {
        const entries = request.entries.map((entry, i) => entryFromWire(entry, `entries[${i}]`));
        await this.node.apply(entries, wireToBigint(request.epoch));
        return { applied: String(entries.length), clock: bigintToWire(this.node.clock.peek()) };
      }),
      Scan: (call) => {
        this.#scan(call).catch((error: unknown) => call.destroy(toServiceError(error) as Error));
      },
      Drop: unary(async (request) => ({ bins: String(await this.node.drop(request.ranges)) })),
      Empty: unary(async (request) => {
        const emptied = await this.node.empty(request.incarnation);
        return { bins: String(emptied.bins), incarnation: emptied.incarnation };
      }),
      Heartbeat: unary(async (request) => {
        const state = await this.node.heartbeat({
          epoch: wireToBigint(request.epoch),
          clockFloor: wireToBigint(request.clockFloor),
          ready:
            request.readiness === "READINESS_READY"
              ? true
              : request.readiness === "READINESS_NOT_READY"
                ? false
                : undefined,
          leaseMs: Number(wireToBigint(request.leaseMs)),
          incarnation: request.incarnation || undefined,
          filled: request.filled,
        });
        return {
          incarnation: state.incarnation,
          ready: state.ready,
          epoch: bigintToWire(state.epoch),
          clock: bigintToWire(state.clock),
          keys: String(state.keys),
          lists: String(state.lists),
          bins: String(state.bins),
          storeOk: state.storeOk,
          needsFill: state.needsFill,
        };
      }),
    };
    server.addService(loadProtocol().Storage.service, handlers);
  }

  #batch(operations: Operation__Output[]): Promise<OperationResult[]> {
    return Promise.all(operations.map((op) => this.#operation(op)));
  }

  /**
   * Answers each batch of the stream as soon as it is done. Operations never
   * throw (each carries its own error), so a stream ends only when the caller
   * ends or cancels it; it is ended here once every batch it sent is answered.
   */
  #pipe(call: grpc.ServerDuplexStream<BatchRequest__Output, BatchReply>): void {
    let inFlight = 0;
    let callerEnded = false;
    const endIfDone = () => {
      if (callerEnded && inFlight === 0 && !call.writableEnded) call.end();
    };
    call.on("data", (request: BatchRequest__Output) => {
      inFlight++;
      void this.#batch(request.operations).then((results) => {
        inFlight--;
        if (!call.cancelled && !call.writableEnded) call.write({ id: request.id, results });
        endIfDone();
      });
    });
    call.on("end", () => {
      callerEnded = true;
      endIfDone();
    });
    call.on("error", (error) => this.logger.debug({ err: error }, "pipe closed by the caller"));
  }

  async #operation(op: Operation__Output): Promise<OperationResult> {
    try {
      switch (op.op) {
        case "get":
          return { get: await this.#get(op.get!) };
        case "set":
          return { write: await this.#write("set", op.set!) };
        case "listAppend":
          return { write: await this.#write("append", op.listAppend!) };
        case "listRemove":
          return { write: await this.#write("remove", op.listRemove!) };
        case "keys":
          return { keys: await this.#keys(op.keys!) };
        case "listKeys":
          return { keys: await this.#listKeys(op.listKeys!) };
        case "listGet":
          return { listGet: await this.#listGet(op.listGet!) };
        case "clock":
          return { clock: await this.#clock(op.clock!) };
        default:
          throw new InvalidArgumentError("operation is empty: set one of get, set, keys, listGet, ...");
      }
    } catch (error) {
      const status = toServiceError(error);
      return { error: { code: status.code ?? 13, message: status.details ?? "internal error" } };
    }
  }

  async #get(request: GetRequest__Output) {
    const stored = await this.node.get(callTarget(request.target), request.key);
    if (!stored) return { found: false };
    return { found: stored.value !== "", value: stored.value, stamp: stampToWire(stored.stamp) };
  }

  async #write(kind: EntryKind, request: SetRequest__Output): Promise<WriteReply> {
    const result = await this.node.write(callTarget(request.target), {
      kind,
      key: request.key,
      value: request.value,
      stamp: request.stamp ? stampFromWire(request.stamp) : undefined,
      atLeast: wireToBigint(request.atLeast),
      writer: request.writer || undefined,
      seq: request.seq,
    });
    return {
      stamp: stampToWire(result.stamp),
      removed: String(result.removed),
      // A remove's count may be reported only where its writer decided it on a ready backend.
      ready: this.node.ready && (kind !== "remove" || result.countDecided),
      superseded: result.superseded,
      clock: bigintToWire(this.node.clock.peek()),
    };
  }

  async #keys(request: PatternRequest__Output) {
    return { keys: await this.node.keys(callTarget(request.target), request) };
  }

  async #listKeys(request: PatternRequest__Output) {
    return { keys: await this.node.listKeys(callTarget(request.target), request) };
  }

  async #listGet(request: ListGetRequest__Output) {
    return { values: await this.node.listGet(callTarget(request.target), request.key) };
  }

  async #clock(request: ClockRequest__Output) {
    const target = callTarget(request.target);
    const atLeast = wireToBigint(request.atLeast);
    const clock = request.raiseOnly
      ? await this.node.raiseClock(target, atLeast)
      : await this.node.tick(target, atLeast);
    return { clock: bigintToWire(clock) };
  }

  async #scan(
    call: grpc.ServerWritableStream<{ ranges: { start: number; end: number }[]; batchSize: number }, unknown>,
  ) {
    const batchSize = Math.min(call.request.batchSize || DEFAULT_SCAN_BATCH, MAX_SCAN_BATCH);
    let sent = 0;
    for await (const entries of this.node.scan(call.request.ranges, batchSize)) {
      if (call.cancelled) return;
      sent += entries.length;
      if (!call.write({ entries: entries.map(entryToWire) })) {
        await new Promise((resolve) => call.once("drain", resolve));
      }
    }
    this.logger.debug({ entries: sent, ranges: call.request.ranges.length }, "scan finished");
    call.end();
  }
}
