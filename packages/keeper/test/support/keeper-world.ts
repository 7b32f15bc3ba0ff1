// A whole cluster in one process on a fake clock: real keepers (Keeper with
// in-process ports), real backend logic (InProcessBackend), beats delivered
// by direct calls. A keeper can be silenced (its process gone: beats to and
// from it fail, and it probes no backend) and started again as a new process,
// or cut off from the other keepers only (beats fail; it still probes), or
// from everything, or have its link stall: its calls are held and arrive late.
import { type KeeperBeat__Output, newWriterId, TimeoutError, UnavailableError } from "@binring/core";
import { Keeper } from "../../src/keeper.js";
import type { KeeperTiming } from "../../src/keeper-options.js";
import type { BackendPort, KeeperPorts } from "../../src/keeper-ports.js";
import { FakeClock } from "./fake-clock.js";
import { InProcessBackend } from "./in-process-backend.js";

export class KeeperWorld {
  readonly clock = new FakeClock();
  readonly backends = new Map<string, InProcessBackend>();
  /** The cluster file's backends: every keeper starts from these, whatever was added since. */
  readonly seed: string[];
  readonly keeperAddresses: string[];
  readonly #keepers: (Keeper | undefined)[];
  /** When each keeper last started: its heartbeat ticks fall every interval from then. */
  readonly #startedAt: number[] = [];
  readonly #writer = newWriterId();
  /** Keepers cut off from the other keepers (not from the backends). */
  readonly #cutOff = new Set<number>();
  /** Keepers cut off from the backends too: every call they make to one is refused. */
  readonly #isolated = new Set<number>();
  /** Keepers whose link stalled: their calls to backends wait here, in order, until deliver(). */
  readonly #stalled = new Map<number, (() => void)[]>();
  /** Stalls a keeper's link at the first call that matches. */
  readonly #stallWhen = new Map<number, (address: string, call: string, detail: unknown) => boolean>();
  #seq = 0;
  readonly #aliases = new Map<string, InProcessBackend>();
  readonly #keeperAliases = new Map<string, number>();

  /** The cluster file's keepers: the first ones of keeperAddresses; the rest are spares, to be added. */
  readonly fileKeepers: string[];

  constructor(
    options: { backends: number; keepers: number; spareKeepers?: number },
    private readonly timing: Partial<KeeperTiming> = {},
  ) {
    for (let i = 0; i < options.backends; i++) {
      const address = `127.0.0.1:${7100 + i}`;
      this.backends.set(address, new InProcessBackend(address, this.clock));
    }
    this.seed = [...this.backends.keys()];
    this.keeperAddresses = Array.from(
      { length: options.keepers + (options.spareKeepers ?? 0) },
      (_, i) => `127.0.0.1:${7700 + i}`,
    );
    this.fileKeepers = this.keeperAddresses.slice(0, options.keepers);
    this.#keepers = this.keeperAddresses.map(() => undefined);
  }

  /** Every backend process of the world: members, and those started but not added, or removed. */
  get addresses(): string[] {
    return [...this.backends.keys()];
  }

  /** Starts a backend process the keepers do not know yet (binring admin add-backend makes it a member). */
  startBackend(address: string): InProcessBackend {
    if (this.backends.has(address)) throw new Error(`backend ${address} already runs`);
    const backend = new InProcessBackend(address, this.clock);
    this.backends.set(address, backend);
    return backend;
  }

  /** Makes `address` another name of the backend at `existing` (as a host name and its IP reach one process). */
  alias(address: string, existing: string): void {
    this.#aliases.set(address, this.backend(existing));
  }

  /** Makes `address` another name of keeper `index`. */
  keeperAlias(address: string, index: number): void {
    this.#keeperAliases.set(address, index);
  }

  backend(address: string): InProcessBackend {
    const backend = this.backends.get(address) ?? this.#aliases.get(address);
    if (!backend) throw new Error(`no backend ${address}`);
    return backend;
  }

  keeper(index: number): Keeper {
    const keeper = this.#keepers[index];
    if (!keeper) throw new Error(`keeper ${index} is not running`);
    return keeper;
  }

  /** Starts keeper `index` as a new process (a spare one acts once added to the keeper ring). */
  startKeeper(index: number): Keeper {
    const inFile = index < this.fileKeepers.length;
    const keeper = new Keeper({
      backends: this.seed,
      keepers: this.fileKeepers,
      ...(inFile ? { index } : { address: this.keeperAddresses[index] }),
      name: `keeper-${index}`,
      timing: this.timing,
      ports: this.#ports(index),
      clock: this.clock,
    });
    this.#keepers[index] = keeper;
    this.#startedAt[index] = this.clock.now();
    keeper.start();
    return keeper;
  }

  /** When keeper `index` last started. */
  startedAt(index: number): number {
    const at = this.#startedAt[index];
    if (at === undefined) throw new Error(`keeper ${index} never started`);
    return at;
  }

  /** Keeper `index` falls silent: it stops, and beats to it fail from now on. */
  async stopKeeper(index: number): Promise<void> {
    await this.keeper(index).stop();
    this.#keepers[index] = undefined;
  }

  /** Keeper `index` is cut off from the other keepers, not from the backends: beats fail both ways. */
  cutOff(index: number): void {
    this.#cutOff.add(index);
  }

  /** Keeper `index` is cut off from everything: the other keepers and every backend. */
  isolate(index: number): void {
    this.#cutOff.add(index);
    this.#isolated.add(index);
  }

  /**
   * From the first call keeper `index` makes to a backend that `when` matches,
   * that call included, its link stalls: its calls to backends are held (its
   * deadlines pass on the fake clock) and its beats fail, so to everyone else it
   * is silent. deliver() lets the held calls arrive, late.
   */
  stallWhen(index: number, when: (address: string, call: string, detail: unknown) => boolean): void {
    this.#stallWhen.set(index, when);
  }

  stalled(index: number): boolean {
    return this.#stalled.has(index);
  }

  /** The held calls of keeper `index` reach their backends now, in order; its link works again. */
  deliver(index: number): void {
    const held = this.#stalled.get(index) ?? [];
    this.#stalled.delete(index);
    this.#cutOff.delete(index);
    for (const release of held) release();
  }

  heal(index: number): void {
    this.#cutOff.delete(index);
    this.#isolated.delete(index);
  }

  /** Starts the cluster file's keepers. */
  startAll(): void {
    for (let i = 0; i < this.fileKeepers.length; i++) this.startKeeper(i);
  }

  /** Advances the clock in small steps until `done` holds; fails after `withinMs` of fake time. */
  async until(done: () => boolean, withinMs: number, what: string): Promise<number> {
    const start = this.clock.now();
    while (!done()) {
      if (this.clock.now() - start > withinMs) throw new Error(`not within ${withinMs} ms: ${what}`);
      await this.clock.advance(100);
    }
    return this.clock.now() - start;
  }

  /** Every backend ready in the view of keeper `index`, and ready on the backend itself. */
  allReady(index = 0): boolean {
    return this.keeper(index)
      .view()
      .backends.every((entry) => entry.state === "ready" && this.backend(entry.address).node.ready);
  }

  stateOf(address: string, index = 0): string {
    return (
      this.keeper(index)
        .view()
        .backends.find((entry) => entry.address === address)?.state ?? "absent"
    );
  }

  /**
   * Writes as a client would: one stamped entry on each of the bin's replicas
   * that keeper 0's view has live and that answer. Returns the replicas written.
   */
  async write(bin: string, key: string, value: string): Promise<string[]> {
    const keeper = this.keeper(0);
    const view = keeper.view();
    const live = new Set(
      view.backends.filter((entry) => entry.state !== "dead").map((entry) => entry.address),
    );
    const replicas = keeper.ring.replicasFor(bin, (address) => live.has(address));
    this.#seq++;
    const entry = {
      bin,
      key,
      kind: "set" as const,
      value,
      stamp: { clock: BigInt(this.#seq), writer: this.#writer, seq: this.#seq },
    };
    const written: string[] = [];
    for (const address of replicas) {
      const backend = this.backend(address);
      if (backend.fault !== "none") continue;
      await backend.node.apply([entry], view.epoch);
      written.push(address);
    }
    return written;
  }

  /** The value a backend's own store holds for a key, whatever its readiness. */
  async stored(address: string, bin: string, key: string): Promise<string | undefined> {
    const entries: string[] = [];
    for await (const batch of this.backend(address).node.scan([{ start: 0, end: 0 }], 1000)) {
      for (const entry of batch) if (entry.bin === bin && entry.key === key) entries.push(entry.value);
    }
    return entries.at(-1);
  }

  async close(): Promise<void> {
    for (let i = 0; i < this.#keepers.length; i++) if (this.#keepers[i]) await this.stopKeeper(i);
  }

  #ports(index: number): KeeperPorts {
    return {
      backend: (address) => (this.#isolated.has(index) ? unreachable(address) : this.#link(index, address)),
      peer: (address) => ({
        beat: async (beat) => {
          const toIndex = this.#keeperAliases.get(address) ?? this.keeperAddresses.indexOf(address);
          const to = this.#keepers[toIndex];
          if (!this.#keepers[index] || !to || this.#cutOff.has(index) || this.#cutOff.has(toIndex))
            throw new Error(`keeper ${address} does not answer`);
          return to.onBeat(beat as KeeperBeat__Output) as KeeperBeat__Output;
        },
      }),
      close: () => undefined,
    };
  }

  /** Keeper `index`'s link to a backend: direct, or holding each call while the link is stalled. */
  #link(index: number, address: string): BackendPort {
    const backend = this.backend(address);
    const call =
      <A extends unknown[], T>(name: string, run: (...args: A) => Promise<T>) =>
      (...args: A): Promise<T> => {
        if (!this.#stalled.has(index) && this.#stallWhen.get(index)?.(address, name, args[0])) {
          this.#stallWhen.delete(index);
          this.#stalled.set(index, []);
          this.#cutOff.add(index);
        }
        const held = this.#stalled.get(index);
        if (!held) return run.apply(backend, args);
        const timeoutMs = args.at(-1) as number;
        return new Promise<T>((resolve, reject) => {
          held.push(() => run.apply(backend, args).then(resolve, reject));
          void this.clock
            .sleep(timeoutMs)
            .then(() => reject(new TimeoutError(`${address}: deadline exceeded`)));
        });
      };
    return {
      heartbeat: call("heartbeat", backend.heartbeat),
      empty: call("empty", backend.empty),
      drop: call("drop", backend.drop),
      apply: call("apply", backend.apply),
      applyFrames: call("apply", backend.applyFrames),
      scan: (...args) =>
        this.#stalled.has(index) ? unreachable(address).scan(...args) : backend.scan(...args),
      scanFrames: (...args) =>
        this.#stalled.has(index) ? unreachable(address).scanFrames(...args) : backend.scanFrames(...args),
    };
  }
}

/** A backend as a keeper cut off from it sees it: every call refused. */
function unreachable(address: string): BackendPort {
  const refuse = () => Promise.reject(new UnavailableError(`${address}: connection refused`));
  return {
    heartbeat: refuse,
    empty: refuse,
    drop: refuse,
    apply: refuse,
    applyFrames: refuse,
    scan: () => ({
      [Symbol.asyncIterator]: () => ({ next: refuse }),
    }),
    scanFrames: () => ({
      [Symbol.asyncIterator]: () => ({ next: refuse }),
    }),
  };
}
