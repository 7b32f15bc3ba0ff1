// One backend's behaviour, independent of gRPC: input checks, stamping, the clock, view
// fencing and readiness. The gRPC service and the in-process Storage both call into it.
import { randomUUID } from "node:crypto";
import {
  BinringError,
  checkBinName,
  checkClock,
  checkEpoch,
  checkStamp,
  checkString,
  type Entry,
  type KeyPattern,
  type Limits,
  NotReadyError,
  type RingRange,
  StaleEpochError,
  type Stamp,
  StatusCode,
  SupersededAttemptError,
  UnavailableError,
  WHOLE_RING,
} from "@binring/core";
import type { Logger } from "pino";
import type {
  BackendState,
  CallTarget,
  EmptyResult,
  HeartbeatCommand,
  WriteRequest,
  WriteResult,
} from "./backend-calls.js";
import { restAfterDropRound } from "./drop-pace.js";
import { KeeperSightings } from "./keeper-sightings.js";
import { KeptMembership } from "./kept-membership.js";
import { checkClaim, checkCopies, checkKey, checkLater, checkPattern } from "./key-checks.js";
import { Ownership } from "./ownership.js";
import { PersistentClock } from "./persistent-clock.js";
import { Readiness, type ReadinessState } from "./readiness.js";
import type { StoreEngine, StoreStats } from "./store-engine.js";
import { afterRelease, WithheldEntries } from "./withheld-entries.js";
import { WriteFences } from "./write-fences.js";
import { WriteStamps } from "./write-stamps.js";

export interface BackendNodeOptions {
  engine: StoreEngine;
  limits: Limits;
  /** Start ready (a standalone backend, or the first start of a fresh cluster). @default false */
  ready?: boolean;
  /** Milliseconds since an arbitrary origin; monotonic. Injected by tests. */
  now?: () => number;
  /** Readiness changes are logged here. @default silent */
  logger?: Logger;
}

export class BackendNode {
  /** This process; with #losses, the incarnation. */
  readonly #process = randomUUID();
  /** Times this backend may have lost or missed acknowledged entries while running. */
  #losses = 0;
  readonly clock: PersistentClock;
  readonly #stamps: WriteStamps;
  readonly #engine: StoreEngine;
  readonly #limits: Limits;
  readonly #now: () => number;
  #epoch = 0n;
  readonly #readiness: Readiness;
  /** An empty runs now: no grant is taken until it ends. */
  #emptying = false;
  /** The last empty asked for; the next one starts after it settles. */
  #emptyQueue: Promise<unknown> = Promise.resolve();
  readonly #fences: WriteFences;
  /** Sets taken but not yet shown to readers: the replicas after this one may lack them. */
  readonly withheld: WithheldEntries;
  readonly #sightings: KeeperSightings;
  readonly #ownership: Ownership;
  /** The cluster's membership as this backend keeps it for the keepers (and names them to clients). */
  readonly membership: KeptMembership;

  constructor(options: BackendNodeOptions) {
    this.#engine = options.engine;
    this.#limits = options.limits;
    this.#now = options.now ?? (() => performance.now());
    this.#readiness = new Readiness(options.ready ?? false, this.#now, options.logger);
    this.clock = new PersistentClock(options.engine);
    this.#stamps = new WriteStamps(this.clock);
    this.#fences = new WriteFences(this.#now, options.logger);
    this.withheld = new WithheldEntries(this.#now, (reason) => this.#lostEntries(reason));
    this.#sightings = new KeeperSightings(this.#now);
    this.#ownership = new Ownership(options.logger);
    this.membership = new KeptMembership(options.engine, options.logger);
    this.#engine.onReset(() => this.#storeReset());
  }

  get epoch(): bigint {
    return this.#epoch;
  }

  /** A keeper's view at `epoch` (its heartbeat, or a view it served): calls from older views are refused from now on. */
  adoptEpoch(epoch: bigint): void {
    if (epoch > this.#epoch) this.#epoch = checkEpoch("epoch", epoch);
  }

  /**
   * Who a keeper's grant of readiness is for. It changes whenever this backend
   * may have lost or missed acknowledged entries (a restart, a store reset, a
   * refused write), so a fill that copied before the loss cannot make it
   * ready: its grant names the incarnation it started filling, and the keeper
   * sees a new one and fills again.
   */
  get incarnation(): string {
    return this.#losses === 0 ? this.#process : `${this.#process}.${this.#losses}`;
  }

  /** Ready: holds every acknowledged entry of the bins it is a replica of. */
  get ready(): boolean {
    return this.#readiness.ready;
  }

  /**
   * A data call's epoch is compared, never adopted: only keepers move a
   * backend's epoch (heartbeat), so no caller can fence out every view by
   * naming a huge one (core/value-bounds.ts).
   */
  #admit(target: CallTarget, isRead: boolean): void {
    checkBinName("bin", target.bin, this.#limits.maxKeyBytes);
    checkEpoch("target.epoch", target.epoch);
    if (target.epoch !== 0n && target.epoch < this.#epoch)
      throw new StaleEpochError(target.epoch, this.#epoch);
    if (isRead && target.requireReady && !this.ready) {
      throw new NotReadyError(
        "this backend may be missing entries (restarted or being filled); read another replica",
      );
    }
  }

  async get(target: CallTarget, key: string): Promise<{ value: string; stamp: Stamp } | null> {
    this.#admit(target, true);
    const stored = await this.#storing(() => this.#engine.getString(target.bin, checkKey(key, this.#limits)));
    return afterRelease(stored, this.withheld.releasedKey(target.bin, key));
  }

  async write(target: CallTarget, request: WriteRequest): Promise<WriteResult> {
    this.#admit(target, false);
    return this.#storing(() => this.#write(target, request));
  }

  async #write(target: CallTarget, request: WriteRequest): Promise<WriteResult> {
    checkKey(request.key, this.#limits);
    checkString("value", request.value, this.#limits.maxValueBytes);
    const later = checkLater(request.later ?? [], request.kind, request.stamp);
    const stamp = await this.#stamps.of(request);
    const entry: Entry = {
      bin: target.bin,
      key: request.key,
      kind: request.kind,
      value: request.value,
      stamp,
    };
    // Checked in the same turn the store takes the entry, so no claim can look in between.
    if (request.stamp && !this.#fences.admits(stamp, request.claim)) {
      throw new SupersededAttemptError(
        `an attempt of write ${stamp.writer}:${stamp.seq} under another claim took over; this one is over`,
      );
    }
    if (later.length > 0)
      this.withheld.withhold(entry.bin, entry.key, entry.value, stamp, later, target.epoch, request.claim);
    // A caller's write is held to the list limit; copies (apply below) never are.
    const [outcome] = await this.#engine.apply([entry], this.ready, true);
    return {
      stamp,
      removed: outcome?.removed ?? 0,
      superseded: outcome?.superseded ?? false,
      countDecided: outcome?.countDecided ?? false,
    };
  }

  async keys(target: CallTarget, pattern: KeyPattern): Promise<string[]> {
    this.#admit(target, true);
    const checked = checkPattern(pattern, this.#limits);
    const keys = await this.#storing(() => this.#engine.keys(target.bin, checked));
    return afterRelease(keys, this.withheld.releasedInBin(target.bin, checked));
  }

  /** The coordinator says the set is on every replica its write listed: readers here may see it. */
  release(target: CallTarget, key: string, stamp: Stamp): void {
    checkBinName("bin", target.bin, this.#limits.maxKeyBytes);
    this.withheld.release(target.bin, checkKey(key, this.#limits), checkStamp("stamp", stamp));
  }

  async listGet(target: CallTarget, key: string): Promise<string[]> {
    this.#admit(target, true);
    return this.#storing(() => this.#engine.getList(target.bin, checkKey(key, this.#limits)));
  }

  async listKeys(target: CallTarget, pattern: KeyPattern): Promise<string[]> {
    this.#admit(target, true);
    return this.#storing(() => this.#engine.listKeys(target.bin, checkPattern(pattern, this.#limits)));
  }

  /** A clock call: with requireReady it is refused, like a read, unless this backend is ready. */
  async tick(target: CallTarget, atLeast: bigint): Promise<bigint> {
    this.#admit(target, true);
    await this.clock.checkJump("atLeast", atLeast);
    return this.#storing(() => this.clock.tick(atLeast));
  }

  /**
   * Raises the clock to at least atLeast without ticking; returns the next
   * value a tick would give. With requireReady it is refused, like a read,
   * unless this backend is ready: writers stamp their entries with it.
   */
  async raiseClock(target: CallTarget, atLeast: bigint): Promise<bigint> {
    this.#admit(target, true);
    await this.clock.checkCaughtUp("atLeast", atLeast);
    if (atLeast > 0n) await this.#storing(() => this.clock.observe(atLeast - 1n));
    return this.clock.peek();
  }

  /** Whether this backend holds the append under `stamp`, or held it until a remove deleted it (write-coordinator.ts). */
  holdsAppend(bin: string, key: string, value: string, stamp: Stamp): Promise<boolean> {
    return this.#storing(() => this.#engine.holdsAppend(bin, key, value, stamp));
  }

  /** The readiness state machine's state, and the ms left on its lease (readiness.ts): for metrics. */
  get readinessState(): ReadinessState {
    return this.#readiness.state;
  }

  get leaseRemainingMs(): number {
    return this.#readiness.leaseRemainingMs;
  }

  /** Applies already-stamped entries (repair, fill); the clock passes every stamp first. */
  async apply(entries: readonly Entry[], epoch: bigint): Promise<void> {
    const highest = checkCopies(entries, this.#limits);
    checkEpoch("epoch", epoch);
    this.#admit({ bin: "", epoch, requireReady: false }, false);
    return this.#storing(async () => {
      await this.clock.observe(highest);
      await this.#engine.applyCopies(this.#fences.admitCopies(entries));
    });
  }

  /**
   * Claims the write (writer, seq) for a coordinator retrying it: fences it
   * (write-fences.ts), then answers the largest stamp this backend applied
   * for it within the store's record time, or null. The fence is up before
   * the store looks, in one turn, so every entry of the write the store took
   * before is seen and none taken after it slips by.
   */
  async claim(target: CallTarget, writer: string, seq: number, claim: string): Promise<Stamp | null> {
    this.#admit(target, false);
    checkClaim(writer, claim);
    this.#fences.claim(writer, seq, claim);
    return this.#storing(() => this.#engine.claim(writer, seq));
  }

  /** The store restarted and may have lost acknowledged entries: no reads until a keeper refills it. */
  #storeReset(): void {
    this.#lostEntries("store restarted");
    this.membership.forget();
    this.clock.storeReset();
  }

  #lostEntries(reason: string): void {
    this.#readiness.lostEntries(reason);
    this.#losses++;
  }

  // Every call of a client or coordinator. Told the store failed, the caller takes
  // this backend for gone and writes skip it (client failure-kind.ts), a read's
  // caller too, and a failed write may or may not have been taken: from then on
  // it may miss entries, so it serves no ready-only reads until a keeper refills it.
  async #storing<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof UnavailableError) this.#lostEntries(`the store failed a call: ${error.message}`);
      throw error;
    }
  }

  /**
   * Every entry of the ranges, ending once every withheld set it may have copied is released (it may be
   * missing on a later replica until then). With `requireReady` (a copy reading this backend alone), refused
   * unless ready, and failed unless it stayed ready in this incarnation throughout (no store reset, no empty).
   */
  async *scan(ranges: readonly RingRange[], batchSize: number, requireReady = false): AsyncIterable<Entry[]> {
    const incarnation = this.incarnation;
    const refused = () => requireReady && !(this.ready && this.incarnation === incarnation);
    if (refused()) throw new NotReadyError("this backend may be missing entries; scan every holder");
    yield* this.#engine.scan(ranges, batchSize);
    await afterRelease(undefined, this.withheld.releasedInRanges(ranges));
    if (refused()) throw new NotReadyError("not ready throughout the scan; scan every holder");
  }

  /**
   * Drops the ranges' bins for a keeper whose view at `epoch` no longer places them
   * here, paced (drop-pace.ts). Refused under an older view, and cut short once a
   * newer one arrives: it may make this backend their holder again (HAZARDS.md 22).
   */
  async drop(ranges: readonly RingRange[], epoch: bigint): Promise<number> {
    checkEpoch("epoch", epoch);
    const overtaken = () => epoch < this.#epoch;
    const dropped = overtaken() ? 0 : await this.#engine.drop(ranges, overtaken, restAfterDropRound);
    if (overtaken()) throw new StaleEpochError(epoch, this.#epoch);
    return dropped;
  }

  /**
   * Deletes everything this backend holds, for its owner about to fill it
   * after its death (ARCHITECTURE.md, "Tombstones"). Refused while ready, to
   * a keeper that no longer owns it, or when this is no longer the incarnation
   * the keeper heard (it acted on an old answer). Empties run one at a time,
   * grants wait for them, and each ends in a new incarnation, so a fill whose
   * copies overlapped an empty cannot make the backend ready.
   */
  empty(incarnation: string, ownerTerm = 0n): Promise<EmptyResult> {
    const run = this.#emptyQueue.then(() => this.#emptyNow(incarnation, ownerTerm));
    this.#emptyQueue = run.catch(() => undefined);
    return run;
  }

  async #emptyNow(incarnation: string, ownerTerm: bigint): Promise<EmptyResult> {
    this.#ownership.admit(ownerTerm, "empty");
    if (incarnation !== this.incarnation)
      throw new BinringError(
        `refused to empty: incarnation "${incarnation}" is not this backend's ("${this.incarnation}")`,
        StatusCode.FAILED_PRECONDITION,
      );
    if (this.ready)
      throw new BinringError("refused to empty: this backend is ready", StatusCode.FAILED_PRECONDITION);
    this.#emptying = true;
    this.#fences.clear();
    this.withheld.clear();
    let bins: number;
    try {
      bins = await this.#engine.drop(WHOLE_RING);
    } finally {
      // Whatever it deleted, even partly, this backend lost entries: a new incarnation.
      this.#lostEntries("emptied");
      this.#emptying = false;
    }
    return { bins, incarnation: this.incarnation };
  }

  /**
   * A keeper's heartbeat: adopt its epoch, raise the clock, grant, renew or revoke readiness as its sender's
   * ownership allows (ownership.ts; never reviving a lapsed lease) — unless it calls a second member here.
   */
  async heartbeat(command: HeartbeatCommand): Promise<BackendState> {
    checkEpoch("epoch", command.epoch);
    checkClock("clockFloor", command.clockFloor);
    checkEpoch("ownerTerm", command.ownerTerm ?? 0n);
    if (command.member !== undefined) await this.membership.calledAs(command.member, command.members ?? []);
    if (command.keeper) this.#sightings.heard(command.keeper);
    const authority = this.#ownership.heartbeat(command.keeper ?? "", command.ownerTerm ?? 0n);
    this.adoptEpoch(command.epoch);
    // Before any grant it brings: a backend that learns here it is leaving takes none.
    this.#readiness.follow(this.membership.ownStatus(command.members ?? [], command.replaceMembers ?? false));
    const forMe =
      authority !== "nothing" &&
      !this.#emptying &&
      (command.incarnation === undefined || command.incarnation === this.incarnation);
    if (command.ready === true && forMe)
      this.#readiness.grant(authority === "all" && (command.filled ?? false), command.leaseMs);
    else if (command.ready === false && authority === "all") this.#readiness.revoke();
    if (command.clockFloor > 0n) await this.clock.observe(command.clockFloor - 1n);
    const kept = await this.membership.take(command.members ?? [], command.replaceMembers ?? false);
    const state = await this.state(command.membersDigest);
    return { ...state, storeOk: state.storeOk && kept };
  }

  /** This backend's state; the membership records too for a keeper whose digest differs (kept-membership.ts). */
  async state(senderDigest?: string): Promise<BackendState> {
    let stats: StoreStats = { bins: 0, keys: 0, lists: 0 };
    let storeOk = true;
    try {
      await this.clock.load();
      stats = await this.#engine.stats();
    } catch {
      storeOk = false;
    }
    return {
      membersDigest: this.membership.digest,
      members: this.membership.answer(senderDigest),
      incarnation: this.incarnation,
      ready: this.ready,
      needsFill: this.#readiness.needsFill,
      retired: this.#readiness.retired,
      epoch: this.#epoch,
      clock: this.clock.peek(),
      storeOk,
      keepers: this.#sightings.report(),
      owner: this.#ownership.owner,
      ...stats,
    };
  }
}
