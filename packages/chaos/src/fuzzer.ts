// A hostile caller for chaos runs and tests: random and boundary values in
// every data call, on the Pipe stream and the unary calls, well-formed and
// not (uint64 extremes, empty and oversized strings, reserved bin names, lone
// surrogates, unknown oneof fields, wrong wire types, truncated messages). It
// writes only to bins of its own ("fuzz-..."), so a workload that runs beside
// it must see exactly what it would see alone: nothing lost, nothing out of
// order (docs/HAZARDS.md 11-14). Every call's outcome is counted; none is
// expected to succeed or fail in particular, only to be answered.
import {
  clientSecurity,
  encodeBatchRequest,
  loadProtocol,
  type Operation,
  RESERVED_BIN_PREFIX,
  type StorageClient,
  type TlsFiles,
} from "@binring/core";
import * as grpc from "@grpc/grpc-js";
import type { Random } from "./random.js";

export interface FuzzerOptions {
  backends: string[];
  random: Random;
  /** Calls in flight at once across all backends. @default 4 */
  concurrency?: number;
  /** Deadline of one call. @default 5000 */
  callTimeoutMs?: number;
  /** The client certificate to call with (a hostile application holds one). @default plaintext */
  tls?: TlsFiles;
}

export interface FuzzCounts {
  /** Calls answered with a result. */
  answered: number;
  /** Calls answered with an error status. */
  refused: number;
  /** Of those, answered UNKNOWN or INTERNAL: a call the backend did not understand it refused, or a bug. */
  internal: number;
}

const U64_EDGES = [
  "0",
  "1",
  "4294967295",
  "4294967296",
  "4611686018427387903",
  "4611686018427387904",
  "9223372036854775807",
  "9223372036854775808",
  "18446744073709551614",
  "18446744073709551615",
];
const U32_EDGES = [0, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1];
const UNARY_METHODS = [
  "Get",
  "Set",
  "Keys",
  "ListGet",
  "ListAppend",
  "ListRemove",
  "ListKeys",
  "Clock",
  "Batch",
];
const WRITER_IDS = [
  "0000000000000000",
  "ffffffffffffffff",
  "0123456789abcdef",
  "not-a-writer",
  "",
  "FFFFFFFFFFFFFFFF",
];

export class Fuzzer {
  readonly counts: FuzzCounts = { answered: 0, refused: 0, internal: 0 };
  readonly #options: FuzzerOptions;
  readonly #random: Random;
  readonly #clients: StorageClient[];
  readonly #raw: grpc.Client[];
  #running: Promise<void>[] = [];
  #stopped = true;

  constructor(options: FuzzerOptions) {
    this.#options = options;
    this.#random = options.random;
    const Storage = loadProtocol().Storage;
    const security = clientSecurity(options.tls, "backend");
    const channelOptions = {
      ...security.options,
      "grpc.max_send_message_length": 64 * 1024 * 1024,
      "grpc.use_local_subchannel_pool": 1,
    };
    this.#clients = options.backends.map((a) => new Storage(a, security.credentials, channelOptions));
    this.#raw = options.backends.map((a) => new grpc.Client(a, security.credentials, channelOptions));
  }

  start(): void {
    this.#stopped = false;
    this.#running = Array.from({ length: this.#options.concurrency ?? 4 }, () => this.#loop());
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.#running);
    for (const client of [...this.#clients, ...this.#raw]) client.close();
  }

  async #loop(): Promise<void> {
    while (!this.#stopped) {
      const i = this.#random.int(0, this.#options.backends.length - 1);
      const kind = this.#random.weighted([
        ["unary", 4],
        ["pipe", 3],
        ["raw-unary", 2],
        ["raw-pipe", 1],
      ] as const);
      let code: number | undefined;
      if (kind === "unary") code = await this.#unary(this.#clients[i]!);
      else if (kind === "pipe") code = await this.#pipe(this.#raw[i]!, encodeSafely(this.#batch()));
      else if (kind === "raw-unary") code = await this.#rawUnary(this.#raw[i]!);
      else code = await this.#pipe(this.#raw[i]!, this.#garbage(encodeSafely(this.#batch())));
      if (code === undefined) this.counts.answered++;
      else {
        this.counts.refused++;
        if (code === grpc.status.UNKNOWN || code === grpc.status.INTERNAL) this.counts.internal++;
      }
    }
  }

  #deadline(): Date {
    return new Date(Date.now() + (this.#options.callTimeoutMs ?? 5000));
  }

  /** A structured call on a random unary method; resolves with the status code of a refusal. */
  #unary(client: StorageClient): Promise<number | undefined> {
    const method = this.#random.pick(UNARY_METHODS);
    const operation = this.#operation();
    const request =
      method === "Batch"
        ? { operations: Array.from({ length: this.#random.int(0, 20) }, () => this.#operation()) }
        : (Object.values(operation)[0] ?? {});
    return new Promise((resolve) => {
      try {
        (client as unknown as Record<string, grpc.requestCallback<unknown> & ((...a: unknown[]) => void)>)[
          method
        ]!(request, { deadline: this.#deadline() }, (error: grpc.ServiceError | null) =>
          resolve(error?.code),
        );
      } catch {
        // The request could not even be encoded (a value past its wire type): nothing was sent.
        resolve(grpc.status.INVALID_ARGUMENT);
      }
    });
  }

  /** Random bytes, or a valid message mutated, as the payload of a random unary method. */
  #rawUnary(client: grpc.Client): Promise<number | undefined> {
    const method = this.#random.pick(UNARY_METHODS);
    const payload = this.#garbage(encodeSafely({ id: 0, operations: [this.#operation()] }));
    return new Promise((resolve) => {
      client.makeUnaryRequest(
        `/binring.v1.Storage/${method}`,
        (bytes: Buffer) => bytes,
        (bytes: Buffer) => bytes,
        payload,
        { deadline: this.#deadline() },
        (error) => resolve(error?.code),
      );
    });
  }

  /** One message on a Pipe stream of its own; resolves once it is answered or the stream ends. */
  #pipe(client: grpc.Client, payload: Buffer): Promise<number | undefined> {
    return new Promise((resolve) => {
      const stream = client.makeBidiStreamRequest(
        "/binring.v1.Storage/Pipe",
        (bytes: Buffer) => bytes,
        (bytes: Buffer) => bytes,
        { deadline: this.#deadline() },
      );
      let settled = false;
      const settle = (code: number | undefined) => {
        if (settled) return;
        settled = true;
        stream.cancel();
        resolve(code);
      };
      stream.on("data", () => settle(undefined));
      stream.on("error", (error: grpc.ServiceError) => settle(error.code));
      stream.on("end", () => settle(undefined));
      stream.write(payload);
      stream.end();
    });
  }

  #batch(): { id: number; operations: Operation[] } {
    const count = this.#random.chance(0.05) ? this.#random.int(1000, 1100) : this.#random.int(0, 30);
    return {
      id: this.#random.pick(U32_EDGES),
      operations: Array.from({ length: count }, () => this.#operation()),
    };
  }

  /** A data operation with random and boundary fields. */
  #operation(): Operation {
    const target = {
      bin: this.#bin(),
      epoch: this.#u64(),
      requireReady: this.#random.chance(0.5),
    };
    const key = this.#string();
    const write = () => ({
      target,
      key,
      value: this.#string(),
      ...(this.#random.chance(0.3) && {
        stamp: {
          clock: this.#u64(),
          writer: this.#random.pick(WRITER_IDS),
          seq: this.#random.pick(U32_EDGES),
        },
      }),
      ...(this.#random.chance(0.3) && { atLeast: this.#u64() }),
      ...(this.#random.chance(0.2) && {
        writer: this.#random.pick(WRITER_IDS),
        seq: this.#random.pick(U32_EDGES),
      }),
      // Only a backend's link may withhold a set for later replicas: refused to this caller.
      ...(this.#random.chance(0.1) && {
        laterReplicas: Array.from({ length: this.#random.int(1, 9) }, () => this.#string()),
      }),
    });
    const pattern = () => ({ target, prefix: this.#string(), suffix: this.#string() });
    switch (this.#random.int(0, 9)) {
      case 0:
        return { get: { target, key } };
      case 1:
        return { set: write() };
      case 2:
        return { keys: pattern() };
      case 3:
        return { listGet: { target, key } };
      case 4:
        return { listAppend: write() };
      case 5:
        return { listRemove: write() };
      case 6:
        return { listKeys: pattern() };
      case 7:
        return { clock: { target, atLeast: this.#u64(), raiseOnly: this.#random.chance(0.5) } };
      case 8:
        return {
          release: { target, key, stamp: { clock: this.#u64(), writer: this.#random.pick(WRITER_IDS) } },
        };
      default:
        return {};
    }
  }

  #bin(): string {
    return this.#random.weighted([
      [`fuzz-${this.#random.int(0, 9)}`, 8],
      [`${RESERVED_BIN_PREFIX}keeper-log`, 1],
      [`${RESERVED_BIN_PREFIX}${this.#random.int(0, 9)}`, 1],
    ] as const);
  }

  #u64(): string {
    return this.#random.chance(0.7) ? this.#random.pick(U64_EDGES) : String(this.#random.int(0, 2 ** 31));
  }

  #string(): string {
    switch (this.#random.int(0, 9)) {
      case 0:
        return "";
      case 1:
        return "\ud800lone";
      case 2:
        return "é🙂\u0000\uffff";
      case 3:
        return this.#random.chance(0.1)
          ? "x".repeat(this.#random.pick([4097, 1024 * 1024 + 1, 9 * 1024 * 1024]))
          : "y";
      default:
        return `s${this.#random.int(0, 99)}`;
    }
  }

  /** Bytes a protobuf decoder must refuse or read as something odd: mutated, cut, or random. */
  #garbage(valid: Buffer): Buffer {
    switch (this.#random.int(0, 3)) {
      case 0: {
        const mutated = Buffer.from(valid);
        for (let n = 0; n < 1 + mutated.length / 16 && mutated.length > 0; n++) {
          mutated[this.#random.int(0, mutated.length - 1)] = this.#random.int(0, 255);
        }
        return mutated;
      }
      case 1:
        return valid.subarray(0, this.#random.int(0, valid.length));
      case 2:
        // An unknown field of each wire type, then an operation whose oneof is a field number no one defined.
        return Buffer.concat([
          valid,
          Buffer.from([0xf8, 0x07, 0x01, 0xfd, 0x07, 1, 2, 3, 4, 0x0a, 0x03, 0xa8, 0x06, 0x01]),
        ]);
      default:
        return Buffer.from(Array.from({ length: this.#random.int(0, 64) }, () => this.#random.int(0, 255)));
    }
  }
}

/** The Pipe encoding of a batch; a value past its wire type (a uint64 over 2^64 - 1) cannot be encoded: empty instead. */
function encodeSafely(batch: { id: number; operations: Operation[] }): Buffer {
  try {
    return encodeBatchRequest(batch);
  } catch {
    return Buffer.alloc(0);
  }
}
