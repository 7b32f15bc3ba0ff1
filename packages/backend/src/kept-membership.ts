// The cluster's membership as this backend keeps it for the keepers: they send
// their records in heartbeats when this backend's digest differs from theirs,
// it merges and stores them, and answers with its own when the sender's digest
// differs. So a keeper that restarted from an old cluster file learns the
// membership from the first member it reaches, even if every keeper restarted.
// The backend itself places nothing by it.
//
// It also keeps which member this backend is: the address keepers call it at.
// A host name and its IP, listed as two members, would reach one process, and
// a bin placed on both would keep two of its three copies there; so once
// called as one member, a backend refuses heartbeats that call it as another
// while the first is still a member (AnotherMemberError). That address is
// stored with the records, so a restart does not let the other name win.
//
// A heartbeat that brings new records is answered once they are stored, so a
// keeper that counts the answer knows the record survives its own restart; the
// stored ones are read once, in the background, and merged when they arrive. A
// backend reports the digest of what it holds, so a keeper whose records it
// lacks (a store that lost them, a restart) sees another digest and sends them
// again.
import {
  AnotherMemberError,
  InvalidArgumentError,
  isBackendAddress,
  type Member,
  membersDigest,
  mergeMembers,
} from "@binring/core";
import type { Logger } from "pino";
import type { StoreEngine } from "./store-engine.js";

interface StoredMember {
  address: string;
  /** Absent in records stored before keepers had records: those are all backends. */
  kind?: Member["kind"];
  slot?: number;
  zone: string;
  status: Member["status"];
  version: string;
  by: string;
}

/** What the store holds: the records and this backend's own address (stored by earlier versions as the records alone). */
interface Stored {
  self: string | undefined;
  records: StoredMember[];
}

/** Most keepers `keepers` lists: the keeper ring's size (keeper/keeper-ring.ts MAX_KEEPERS). */
const MAX_LISTED_KEEPERS = 16;

export class KeptMembership {
  #records = new Map<string, Member>();
  /** The member address keepers call this backend at, once one did. */
  #self: string | undefined;
  #digest = membersDigest(this.#records);
  #load: "not read" | "reading" | "read" = "not read";
  /** The read of the stored records, once started (settled when it is done, whatever its outcome). */
  #reading: Promise<void> = Promise.resolve();
  /** The last write failed: the records held are not stored, so this backend reports no digest until they are. */
  #unsaved = false;
  /** Writes go one after another, so the last one stored is the latest merge. */
  #writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly engine: StoreEngine,
    private readonly logger: Logger | undefined,
  ) {}

  get digest(): string {
    return this.#unsaved ? "" : this.#digest;
  }

  /**
   * Takes a keeper's records: merged, or in place of what was kept when
   * `replace`. Resolves whether they are stored (false: the store refused them).
   */
  async take(records: readonly Member[], replace: boolean): Promise<boolean> {
    try {
      await (replace ? this.#replace(records) : this.#merge(records));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * A heartbeat calls this backend as the member at `address`, bringing
   * `records`. Refused when this backend is already another member, one the
   * records (kept, or brought) hold as a member or leaving; otherwise
   * `address` is now this backend's, stored before this resolves.
   */
  async calledAs(address: string, records: readonly Member[]): Promise<void> {
    if (!isBackendAddress(address))
      throw new InvalidArgumentError(`member must be "host:port", got ${JSON.stringify(address)}`);
    await this.#readStored();
    if (address === this.#self) return;
    const known = new Map(this.#records);
    mergeMembers(known, records);
    const current = this.#self === undefined ? undefined : known.get(this.#self);
    if (current?.kind === "backend" && current.status !== "removed") {
      throw new AnotherMemberError(
        `${address} reaches the backend that is already the member ${this.#self}: one process on the ring twice would hold two copies of a bin`,
      );
    }
    this.#self = address;
    await this.#keep(this.#records);
  }

  /**
   * This backend's own status as a member once `records` are taken (merged,
   * or in place of what was kept when `replace`); undefined while no keeper
   * has called it as a member, or its record is unknown.
   */
  ownStatus(records: readonly Member[], replace: boolean): Member["status"] | undefined {
    if (this.#self === undefined) return undefined;
    const known = replace ? new Map<string, Member>() : new Map(this.#records);
    mergeMembers(known, records);
    const own = known.get(this.#self);
    return own?.kind === "backend" ? own.status : undefined;
  }

  /** What to send back to a keeper whose digest is `senderDigest`: every record when it differs from ours, else none. */
  answer(senderDigest: string | undefined): Member[] {
    return senderDigest !== undefined && senderDigest !== this.digest ? [...this.#records.values()] : [];
  }

  /**
   * Merges records; resolves once the result is stored, at once when nothing
   * changed. Starts reading the stored ones the first time. Rejects when the
   * store refused the write.
   */
  #merge(records: readonly Member[]): Promise<void> {
    void this.#readStored();
    const merged = new Map(this.#records);
    return mergeMembers(merged, records) || this.#unsaved ? this.#keep(merged) : Promise.resolve();
  }

  /** Keeps exactly these records (this backend is being added: what it kept may be another cluster's). */
  #replace(records: readonly Member[]): Promise<void> {
    const replaced = new Map<string, Member>();
    mergeMembers(replaced, records);
    this.#load = "read";
    return this.#keep(replaced);
  }

  /** The store restarted empty under this backend: what it held is gone; keepers send it again. */
  forget(): void {
    this.#records = new Map();
    this.#self = undefined;
    this.#digest = membersDigest(this.#records);
    this.#load = "not read";
  }

  /** Holds the records now; resolves once they are stored, after every earlier write. */
  #keep(records: Map<string, Member>): Promise<void> {
    this.#records = records;
    this.#digest = membersDigest(records);
    const stored = JSON.stringify({ self: this.#self, records: [...records.values()].map(toStored) });
    const write = this.#writes.then(() => this.engine.saveMembership(stored));
    this.#writes = write.then(
      () => {
        this.#unsaved = false;
      },
      (error: unknown) => {
        this.#unsaved = true;
        this.logger?.warn(
          { err: (error as Error).message },
          "could not store the membership; keepers send it again",
        );
      },
    );
    return write;
  }

  /**
   * The keepers recorded as on the keeper ring, at most `limit`: what a client
   * that reaches no keeper of its cluster file asks for. Reads the stored
   * records first if they were not read yet (no keeper has called since start).
   */
  async keepers(limit = MAX_LISTED_KEEPERS): Promise<string[]> {
    await this.#readStored();
    return [...this.#records.values()]
      .filter((record) => record.kind === "keeper" && record.status === "member")
      .map((record) => record.address)
      .slice(0, limit);
  }

  /** The member address keepers call this backend at, once one did (kept across restarts with the records). */
  async self(): Promise<string | undefined> {
    await this.#readStored();
    return this.#self;
  }

  #readStored(): Promise<void> {
    if (this.#load !== "not read") return this.#reading;
    this.#load = "reading";
    this.#reading = this.engine.loadMembership().then(
      (stored) => {
        if (this.#load !== "reading") return;
        this.#load = "read";
        if (stored === null) return;
        let self: string | undefined;
        let records: Member[];
        try {
          const parsed = JSON.parse(stored) as Stored | StoredMember[];
          ({ self, records } = Array.isArray(parsed)
            ? { self: undefined, records: parsed.map(fromStored) }
            : { self: parsed.self, records: parsed.records.map(fromStored) });
        } catch (error) {
          // Not what this backend stores: keepers send the records again; the address is taken anew.
          this.logger?.warn({ err: (error as Error).message }, "stored membership unreadable; ignored");
          return;
        }
        this.#self ??= self;
        const merged = new Map(this.#records);
        if (mergeMembers(merged, records)) this.#keep(merged).catch(() => undefined);
      },
      () => {
        if (this.#load === "reading") this.#load = "not read";
      },
    );
    return this.#reading;
  }
}

function toStored(record: Member): StoredMember {
  return { ...record, version: record.version.toString() };
}

function fromStored(stored: StoredMember): Member {
  return {
    ...stored,
    kind: stored.kind ?? "backend",
    slot: stored.slot ?? 0,
    version: BigInt(stored.version),
  };
}
