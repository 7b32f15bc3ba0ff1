// A real backend (BackendNode over a MemoryEngine) behind the keeper's
// BackendPort, on the fake clock. Faults a test can set: down (every call is
// refused at once, as a closed port), hung (a paused process: callers time
// out on the fake clock, and the calls queued meanwhile run when it resumes,
// late), and restart (a new process over an empty or the same store).
import { BackendNode, heartbeatCommandFromWire, heartbeatReplyToWire, MemoryEngine } from "@binring/backend";
import {
  DEFAULT_LIMITS,
  type Entry,
  type EntryFrame,
  type HeartbeatReply__Output,
  type HeartbeatRequest,
  type RingRange,
  TimeoutError,
  UnavailableError,
} from "@binring/core";
import type { BackendPort } from "../../src/keeper-ports.js";
import { entriesOf, framesOf } from "./entry-frames.js";
import type { FakeClock } from "./fake-clock.js";

export type Fault = "none" | "down" | "hung";

/**
 * The memory store with a keeper's drops unpaced: they rest on real timers
 * (backend/src/drop-pace.ts), which nothing on the fake clock waits for.
 */
class UnpacedMemoryEngine extends MemoryEngine {
  override drop(ranges: readonly RingRange[], stop?: () => boolean): Promise<number> {
    return super.drop(ranges, stop);
  }
}

export class InProcessBackend implements BackendPort {
  fault: Fault = "none";
  /** Fake-clock time every call takes before it runs: a slow backend, or a fill that lasts. */
  latencyMs = 0;
  node: BackendNode;
  #engine = new UnpacedMemoryEngine();
  /** Calls made while hung: they run when it resumes, whether or not their caller still waits. */
  readonly #held: (() => void)[] = [];
  /** Runs before each call reaches the backend: tests inject a fault at an exact step. */
  onCall: ((call: string, detail: unknown) => void) | undefined;
  /** Calls refused as if their packets were lost on the way (a one-call cut): they time out. */
  loses: ((call: string, detail: unknown) => boolean) | undefined;
  /** Rewrites each heartbeat reply on its way back: a backend that reports what no backend should. */
  tamper: ((reply: HeartbeatReply__Output) => HeartbeatReply__Output) | undefined;
  /** Every heartbeat command this backend took, for assertions. */
  readonly heartbeats: HeartbeatRequest[] = [];
  /** The rate every copy's Scan of this backend asked for (0: unpaced), for assertions. */
  readonly scanRates: number[] = [];

  constructor(
    readonly address: string,
    private readonly clock: FakeClock,
  ) {
    this.node = this.#start();
  }

  /** A new process: over an empty store (its data lost), or over the same one. */
  restart(store: "empty" | "kept"): void {
    if (store === "empty") this.#engine = new UnpacedMemoryEngine();
    this.node = this.#start();
  }

  /** Ends a hang: the calls queued meanwhile run now, in order. */
  resume(): void {
    this.fault = "none";
    for (const release of this.#held.splice(0)) release();
  }

  heartbeat(request: HeartbeatRequest, timeoutMs: number): Promise<HeartbeatReply__Output> {
    return this.#call("heartbeat", request, timeoutMs, async () => {
      this.heartbeats.push(request);
      const reply = heartbeatReplyToWire(await this.node.heartbeat(heartbeatCommandFromWire(request)));
      return this.tamper ? this.tamper(reply) : reply;
    });
  }

  empty(incarnation: string, ownerTerm: bigint, timeoutMs: number) {
    return this.#call("empty", incarnation, timeoutMs, () => this.node.empty(incarnation, ownerTerm));
  }

  drop(ranges: readonly RingRange[], epoch: bigint, timeoutMs: number) {
    return this.#call("drop", ranges, timeoutMs, () => this.node.drop(ranges, epoch));
  }

  apply(entries: readonly Entry[], epoch: bigint, timeoutMs: number) {
    return this.#call("apply", entries, timeoutMs, () => this.node.apply(entries, epoch));
  }

  applyFrames(frames: readonly EntryFrame[], epoch: bigint, timeoutMs: number) {
    return this.apply(entriesOf(frames), epoch, timeoutMs);
  }

  async *scanFrames(
    ranges: readonly RingRange[],
    batchSize: number,
    timeoutMs: number,
    bytesPerSecond = 0,
    requireReady = false,
  ): AsyncIterable<EntryFrame[]> {
    this.scanRates.push(bytesPerSecond);
    for await (const batch of this.scan(ranges, batchSize, timeoutMs, requireReady)) yield framesOf(batch);
  }

  async *scan(
    ranges: readonly RingRange[],
    batchSize: number,
    timeoutMs: number,
    requireReady = false,
  ): AsyncIterable<Entry[]> {
    const batches = await this.#call("scan", ranges, timeoutMs, async () => {
      const all: Entry[][] = [];
      for await (const batch of this.node.scan(ranges, batchSize, requireReady)) all.push(batch);
      return all;
    });
    yield* batches;
  }

  #start(): BackendNode {
    return new BackendNode({ engine: this.#engine, limits: DEFAULT_LIMITS, now: () => this.clock.now() });
  }

  #call<T>(call: string, detail: unknown, timeoutMs: number, run: () => Promise<T>): Promise<T> {
    this.onCall?.(call, detail);
    if (this.loses?.(call, detail))
      return this.clock
        .sleep(timeoutMs)
        .then(() => Promise.reject(new TimeoutError(`${this.address}: deadline exceeded`)));
    if (this.fault === "down")
      return Promise.reject(new UnavailableError(`${this.address}: connection refused`));
    if (this.fault === "none") return this.latencyMs > 0 ? this.clock.sleep(this.latencyMs).then(run) : run();
    return new Promise<T>((resolve, reject) => {
      this.#held.push(() => run().then(resolve, reject));
      void this.clock
        .sleep(timeoutMs)
        .then(() => reject(new TimeoutError(`${this.address}: deadline exceeded`)));
    });
  }
}
