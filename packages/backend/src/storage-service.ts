// The Storage gRPC service: decodes requests, calls the BackendNode, encodes
// replies. Every failure becomes a gRPC status naming what went wrong; inside a
// Batch each operation fails on its own. Sizes are bytes end to end
// (docs/HAZARDS.md 13, 14): a message carries at most MAX_OPERATIONS_PER_MESSAGE
// operations, replies and scans are split into messages of about
// MESSAGE_BUDGET_BYTES, one result never passes MAX_RESULT_BYTES, and a Pipe
// stream stops being read while MAX_OPERATIONS_IN_FLIGHT of its operations run
// or its replies wait on the caller's flow control. The sizes are counted in message-sizes.ts.

import type {
  BatchReply,
  BatchRequest__Output,
  ClaimRequest__Output,
  ClockRequest__Output,
  GetRequest__Output,
  ListGetRequest__Output,
  Operation,
  Operation__Output,
  OperationResult,
  OperationResult__Output,
  PatternRequest__Output,
  ReleaseRequest__Output,
  SetRequest__Output,
  StorageControlHandlers,
  StorageHandlers,
  Target__Output,
  WriteReply,
} from "@binring/core";
import {
  bigintToWire,
  type EntryKind,
  entryFromWire,
  fromOperationError,
  InvalidArgumentError,
  loadProtocol,
  MESSAGE_BUDGET_BYTES,
  PermissionDeniedError,
  stampFromWire,
  stampToWire,
  toOperationError,
  toServiceError,
  Undecodable,
  wireToBigint,
  withTolerantDecoding,
} from "@binring/core";
import type * as grpc from "@grpc/grpc-js";
import type { Logger } from "pino";
import type { CallTarget } from "./backend-calls.js";
import { type BackendMetrics, operationMethod } from "./backend-metrics.js";
import type { BackendNode } from "./backend-node.js";
import { serveHeartbeats } from "./heartbeat-stream.js";
import { heartbeatCommandFromWire, heartbeatReplyToWire } from "./heartbeat-wire.js";
import type { LinkStream, PipeStream } from "./link-stream.js";
import { byBytes, capReply, checkOperationCount, checkResultSize, resultBytes } from "./message-sizes.js";
import type { PeerLinks } from "./peer-links.js";
import { serveScan, withEncodedScanReplies } from "./scan-stream.js";
import { WriteCoordination } from "./write-coordination.js";

/** Operations one Pipe stream may have running; past it the stream is not read until some finish. */
export const MAX_OPERATIONS_IN_FLIGHT = 1024;
/** HTTP/2 streams per connection (grpc.max_concurrent_streams). */
export const MAX_CONCURRENT_STREAMS = 64;
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
    const request: unknown = call.request;
    if (request instanceof Undecodable) {
      callback(toServiceError(request.error));
      return;
    }
    handle(call.request).then(
      (reply) => callback(null, reply),
      (error: unknown) => callback(toServiceError(error)),
    );
  };
}

export class StorageService {
  readonly #coordination: WriteCoordination;

  constructor(
    private readonly node: BackendNode,
    private readonly logger: Logger,
    /** Links to the other replicas, for the writes this backend coordinates. */
    links: PeerLinks,
    private readonly metrics?: BackendMetrics,
  ) {
    this.#coordination = new WriteCoordination(links, (operation) => this.#local(operation), node);
  }

  /**
   * One operation run here for a write this backend coordinates, counted as a
   * call like those its links bring the other replicas: it rejects with its
   * error, as a link does.
   */
  async #local(operation: Operation): Promise<OperationResult__Output> {
    // As the Pipe decoder gives an operation: its oneof's member named in `op`.
    const op = Object.keys(operation)[0] as Operation__Output["op"];
    const result = await this.#operation({ ...operation, op } as Operation__Output, true);
    if (result.error) throw fromOperationError(result.error as Parameters<typeof fromOperationError>[0]);
    return result as OperationResult__Output;
  }

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
      Batch: unary(async (request) => {
        checkOperationCount(request.operations.length);
        return { results: capReply(await this.#batch(request.operations, false)) };
      }),
      Pipe: (call) => this.#pipe(grpcPipe(call), false),
      Keepers: unary(async () => ({ keepers: await this.node.membership.keepers() })),
    };
    const control: StorageControlHandlers = {
      Apply: unary(async (request) => {
        const entries = request.entries.map((entry, i) => entryFromWire(entry, `entries[${i}]`));
        this.metrics?.applied(entries.length);
        await this.node.apply(entries, wireToBigint(request.epoch));
        return { applied: String(entries.length), clock: bigintToWire(this.node.clock.peek()) };
      }),
      Scan: (call) => {
        // An error emitted, not destroy(): grpc-js sends a server stream's status only when it ends.
        const fail = (error: unknown) => call.emit("error", toServiceError(error));
        const request: unknown = call.request;
        if (request instanceof Undecodable) {
          fail(request.error);
          return;
        }
        serveScan(call, (...args) => this.node.scan(...args), this.logger).catch(fail);
      },
      Drop: unary(async (request) => ({
        bins: String(await this.node.drop(request.ranges, wireToBigint(request.epoch))),
      })),
      Empty: unary(async (request) => {
        const emptied = await this.node.empty(request.incarnation, wireToBigint(request.ownerTerm));
        return { bins: String(emptied.bins), incarnation: emptied.incarnation };
      }),
      Heartbeats: (call) =>
        serveHeartbeats(
          call,
          async (request) =>
            heartbeatReplyToWire(await this.node.heartbeat(heartbeatCommandFromWire(request))),
          this.logger,
          (code, startedMs) => this.metrics?.call("Heartbeat", code, startedMs),
        ),
    };
    server.addService(
      withTolerantDecoding(loadProtocol().Storage.service),
      this.metrics?.instrument(handlers) ?? handlers,
    );
    server.addService(
      withEncodedScanReplies(withTolerantDecoding(loadProtocol().StorageControl.service)),
      this.metrics?.instrument(control) ?? control,
    );
  }

  /** `fromBackend`: the caller is a backend (or nothing tells, without TLS), which may forward withheld sets. */
  #batch(operations: Operation__Output[], fromBackend: boolean): Promise<OperationResult[]> {
    this.metrics?.batch(operations.length);
    return Promise.all(operations.map((op) => this.#operation(op, fromBackend)));
  }

  /** Serves a link (link-stream.ts) as it serves a gRPC Pipe stream. */
  serveLink(link: LinkStream): void {
    this.#pipe(link, link.fromBackend);
  }

  /**
   * Answers each batch of the stream as soon as it is done, in parts of about
   * MESSAGE_BUDGET_BYTES. Operations never throw (each carries its own error),
   * so a stream ends only when the caller ends or cancels it (ended here once
   * every batch it sent is answered), or sends a batch over the operation
   * limit. Reading stops while too many operations run or replies wait on the
   * caller's flow control, so HTTP/2 pushes back on a caller that sends faster
   * than it reads.
   */
  #pipe(call: PipeStream, fromBackend: boolean): void {
    let operations = 0;
    let batches = 0;
    let callerEnded = false;
    let draining = false;
    let paused = false;
    const flow = () => {
      const stop = operations >= MAX_OPERATIONS_IN_FLIGHT || draining;
      if (stop === paused) return;
      paused = stop;
      if (stop) call.pause();
      else call.resume();
    };
    const endIfDone = () => {
      if (callerEnded && batches === 0 && !call.writableEnded) call.end();
    };
    call.on("drain", () => {
      draining = false;
      flow();
    });
    call.on("data", (request: BatchRequest__Output | Undecodable) => {
      if (request instanceof Undecodable) {
        call.fail(request.error);
        return;
      }
      const count = request.operations.length;
      try {
        checkOperationCount(count);
      } catch (error) {
        call.fail(error);
        return;
      }
      operations += count;
      batches++;
      flow();
      void this.#batch(request.operations, fromBackend).then((results) => {
        operations -= count;
        batches--;
        if (!call.cancelled && !call.writableEnded) {
          const parts = [...byBytes(results, resultBytes, MESSAGE_BUDGET_BYTES)];
          parts.forEach((part, i) => {
            if (!call.write({ id: request.id, results: part, partial: i < parts.length - 1 }))
              draining = true;
          });
        }
        flow();
        endIfDone();
      });
    });
    call.on("end", () => {
      callerEnded = true;
      endIfDone();
    });
    call.on("error", (error) => this.logger.debug({ err: error }, "pipe closed by the caller"));
  }

  /** One operation, timed and counted only when the backend keeps metrics (no extra promise otherwise). */
  #operation(op: Operation__Output, fromBackend: boolean): Promise<OperationResult> {
    const metrics = this.metrics;
    if (!metrics) return this.#run(op, fromBackend);
    const startedMs = performance.now();
    return this.#run(op, fromBackend).then((result) => {
      metrics.call(operationMethod(op.op), result.error?.code ?? 0, startedMs);
      return result;
    });
  }

  async #run(op: Operation__Output, fromBackend: boolean): Promise<OperationResult> {
    try {
      switch (op.op) {
        case "get":
          return { get: await this.#get(op.get!) };
        case "set":
          return { write: await this.#write("set", op.set!, fromBackend) };
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
        case "write":
          return { write: await this.#coordination.write(op.write!) };
        case "claim":
          return { claim: await this.#claim(op.claim!) };
        case "release":
          return { release: this.#release(op.release!, fromBackend) };
        default:
          throw new InvalidArgumentError("operation is empty: set one of get, set, keys, listGet, ...");
      }
    } catch (error) {
      return { error: toOperationError(error) };
    }
  }

  async #get(request: GetRequest__Output) {
    const stored = await this.node.get(callTarget(request.target), request.key);
    if (!stored) return { found: false };
    return { found: stored.value !== "", value: stored.value, stamp: stampToWire(stored.stamp) };
  }

  async #write(kind: EntryKind, request: SetRequest__Output, fromBackend = false): Promise<WriteReply> {
    const later = request.laterReplicas ?? [];
    if (later.length > 0) onlyFromBackend(fromBackend, "a set with later_replicas");
    const result = await this.node.write(callTarget(request.target), {
      kind,
      key: request.key,
      value: request.value,
      stamp: request.stamp ? stampFromWire(request.stamp) : undefined,
      atLeast: wireToBigint(request.atLeast),
      writer: request.writer || undefined,
      seq: request.seq,
      claim: request.claim || undefined,
      later,
    });
    return {
      stamp: stampToWire(result.stamp),
      removed: String(result.removed),
      // A remove's count may be reported only where its writer decided it on a ready backend.
      ready: this.node.ready && (kind !== "remove" || result.countDecided),
      superseded: result.superseded,
      clock: bigintToWire(this.node.clock.peek()),
      restamps: 0,
    };
  }

  async #claim(request: ClaimRequest__Output) {
    const stamp = await this.node.claim(
      callTarget(request.target),
      request.writer,
      request.seq,
      request.claim,
    );
    return { stamp: stamp && stampToWire(stamp) };
  }

  #release(request: ReleaseRequest__Output, fromBackend: boolean) {
    onlyFromBackend(fromBackend, "release");
    if (!request.stamp)
      throw new InvalidArgumentError("release.stamp is missing: it names the entry released");
    this.node.release(callTarget(request.target), request.key, stampFromWire(request.stamp));
    return {};
  }

  async #keys(request: PatternRequest__Output) {
    return {
      keys: checkResultSize("the keys reply", await this.node.keys(callTarget(request.target), request)),
    };
  }

  async #listKeys(request: PatternRequest__Output) {
    const keys = await this.node.listKeys(callTarget(request.target), request);
    return { keys: checkResultSize("the listKeys reply", keys) };
  }

  async #listGet(request: ListGetRequest__Output) {
    const values = await this.node.listGet(callTarget(request.target), request.key);
    return { values: checkResultSize(`list ${JSON.stringify(request.key)}`, values) };
  }

  async #clock(request: ClockRequest__Output) {
    const target = callTarget(request.target);
    const atLeast = wireToBigint(request.atLeast);
    const clock = request.raiseOnly
      ? await this.node.raiseClock(target, atLeast)
      : await this.node.tick(target, atLeast);
    return { clock: bigintToWire(clock) };
  }
}

/**
 * What only a write's coordinator sends, on its link to another replica:
 * anyone else could withhold a set for ever, or release one a later replica
 * still lacks.
 */
function onlyFromBackend(fromBackend: boolean, what: string): void {
  if (!fromBackend)
    throw new PermissionDeniedError(`${what} is taken only on a link from a backend (a write's coordinator)`);
}

/** A gRPC Pipe call as the stream the Pipe handler serves; failing it ends the call with the error's status. */
function grpcPipe(call: grpc.ServerDuplexStream<BatchRequest__Output, BatchReply>): PipeStream {
  return Object.assign(call, { fail: (error: unknown) => call.emit("error", toServiceError(error)) });
}
