// Which backends are on the bin ring and which keepers on the keeper ring. The
// cluster file's lists only seed a fresh cluster; afterwards membership is what
// the keepers recorded: one record per address, bumped on every change (added,
// leaving, removed). Merging keeps each
// address's higher version, then the larger recorder, so keepers and backends
// that exchange records converge on the same membership whatever the order.
// Backends keep the records (HeartbeatRequest.members), so the membership
// survives every keeper restarting at once.
import { createHash } from "node:crypto";
import { InvalidArgumentError } from "./errors.js";
import type { MemberKind__Output } from "./generated/binring/v1/MemberKind.js";
import type {
  MemberRecord__Output,
  MemberRecord as WireMemberRecord,
} from "./generated/binring/v1/MemberRecord.js";
import type { MemberStatus__Output } from "./generated/binring/v1/MemberStatus.js";
import { isWildcardHost, parseHostPort } from "./host-port.js";
import { EPOCH_CEILING } from "./value-bounds.js";

export type MemberStatus = "member" | "leaving" | "removed";

/** Which ring a record places its address on. */
export type MemberKind = "backend" | "keeper";

/** Keeper slots: a keeper's slot is the low bits of what it mints, so at most this many keepers are on the ring. */
export const KEEPER_SLOTS = 16;

export interface MemberRecord {
  address: string;
  kind: MemberKind;
  /** Keepers only: its slot, 0 to KEEPER_SLOTS - 1 (0 for a backend). */
  slot: number;
  /** Failure domain; "" for none. */
  zone: string;
  status: MemberStatus;
  /** 0 for a seed from the cluster file; every recorded change is above. */
  version: bigint;
  /** The keeper that recorded this version ("" for a seed). */
  by: string;
}

/** Most records one membership holds: a ring holds at most 2^16 members, and removed ones are kept. */
export const MAX_MEMBER_RECORDS = 4096;

/** Most bytes of an address or a zone. */
const MAX_NAME_BYTES = 255;

/**
 * Control characters (C0, DEL, C1) are in no address or zone: status tables
 * print them to terminals, and the membership digest joins fields with NUL.
 */
const CONTROL = /\p{Cc}/u;

/** Why `zone` cannot name a failure domain, or undefined when it can ("" is none). */
export function zoneProblem(zone: string): string | undefined {
  const bytes = new TextEncoder().encode(zone).length;
  if (bytes > MAX_NAME_BYTES) return `is ${bytes} bytes, at most ${MAX_NAME_BYTES}`;
  if (CONTROL.test(zone)) return `holds a control character: ${JSON.stringify(zone)}`;
  return undefined;
}

/** Is `address` "host:port" (an IPv6 literal in brackets) with a port that exists? */
export function isBackendAddress(address: string): boolean {
  return parseHostPort(address) !== undefined && new TextEncoder().encode(address).length <= MAX_NAME_BYTES;
}

/** Is the host of `address` every interface (host-port.ts isWildcardHost)? */
export function isWildcardAddress(address: string): boolean {
  const parsed = parseHostPort(address);
  return parsed !== undefined && isWildcardHost(parsed.host);
}

/** Why `address` cannot name a member for the others to reach, or undefined when it can. */
export function memberAddressProblem(address: string): string | undefined {
  const bytes = new TextEncoder().encode(address).length;
  if (bytes > MAX_NAME_BYTES && parseHostPort(address) !== undefined)
    return `is ${bytes} bytes, at most ${MAX_NAME_BYTES}`;
  if (!isBackendAddress(address)) return `must be "host:port", got ${JSON.stringify(address)}`;
  if (isWildcardAddress(address)) {
    return `${address} listens on every interface but names no host the others can reach: give the host's own address`;
  }
  return undefined;
}

/** Does a win over b? */
export function newerMember(a: MemberRecord, b: MemberRecord): boolean {
  return a.version > b.version || (a.version === b.version && a.by > b.by);
}

export function sameMember(a: MemberRecord | undefined, b: MemberRecord | undefined): boolean {
  return (
    a === b ||
    (a !== undefined &&
      b !== undefined &&
      a.version === b.version &&
      a.by === b.by &&
      a.status === b.status &&
      a.zone === b.zone &&
      a.kind === b.kind &&
      a.slot === b.slot)
  );
}

/** Merges records into `into`; returns whether anything changed. */
export function mergeMembers(into: Map<string, MemberRecord>, records: Iterable<MemberRecord>): boolean {
  let changed = false;
  for (const record of records) {
    const mine = into.get(record.address);
    if (!mine || newerMember(record, mine)) {
      into.set(record.address, record);
      changed = true;
    }
  }
  return changed;
}

/** A short digest of a membership: equal digests, equal records. */
export function membersDigest(records: ReadonlyMap<string, MemberRecord>): string {
  const hash = createHash("sha1");
  for (const address of [...records.keys()].sort()) {
    const r = records.get(address)!;
    hash.update(
      `${r.address}\u0000${r.kind}\u0000${r.slot}\u0000${r.zone}\u0000${r.status}\u0000${r.version}\u0000${r.by}\n`,
    );
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * The records of the cluster file's backends and keepers: version 0, so any
 * recorded change wins. A keeper's slot is its place in the file's list.
 */
export function seedMembers(
  backends: readonly string[],
  zones: Readonly<Record<string, string>> = {},
  keepers: readonly string[] = [],
): Map<string, MemberRecord> {
  const seed = (address: string, kind: MemberKind, slot: number, zone: string): MemberRecord => ({
    address,
    kind,
    slot,
    zone,
    status: "member",
    version: 0n,
    by: "",
  });
  return new Map([
    ...backends.map((address) => [address, seed(address, "backend", 0, zones[address] ?? "")] as const),
    ...keepers.map((address, slot) => [address, seed(address, "keeper", slot, "")] as const),
  ]);
}

const STATUS_TO_WIRE: Record<MemberStatus, MemberStatus__Output> = {
  member: "MEMBER_STATUS_MEMBER",
  leaving: "MEMBER_STATUS_LEAVING",
  removed: "MEMBER_STATUS_REMOVED",
};

export function memberStatusToWire(status: MemberStatus): MemberStatus__Output {
  return STATUS_TO_WIRE[status];
}

const KIND_TO_WIRE: Record<MemberKind, MemberKind__Output> = {
  backend: "MEMBER_KIND_BACKEND",
  keeper: "MEMBER_KIND_KEEPER",
};

export function memberToWire(record: MemberRecord): WireMemberRecord {
  return {
    address: record.address,
    kind: KIND_TO_WIRE[record.kind],
    slot: record.slot,
    zone: record.zone,
    status: STATUS_TO_WIRE[record.status],
    version: record.version.toString(),
    by: record.by,
  };
}

/**
 * Records from the wire, checked one by one: `field` names the list in the
 * error. A keeper's records are trusted no further than any call's input.
 */
export function membersFromWire(field: string, records: readonly MemberRecord__Output[]): MemberRecord[] {
  if (records.length > MAX_MEMBER_RECORDS) {
    throw new InvalidArgumentError(`${field}: ${records.length} records, at most ${MAX_MEMBER_RECORDS}`);
  }
  return records.map((wire, i) => {
    const where = `${field}[${i}]`;
    if (!isBackendAddress(wire.address)) {
      throw new InvalidArgumentError(
        `${where}.address must be "host:port", got ${JSON.stringify(wire.address)}`,
      );
    }
    const zone = zoneProblem(wire.zone);
    if (zone !== undefined) throw new InvalidArgumentError(`${where}.zone ${zone}`);
    if (Buffer.byteLength(wire.by) > MAX_NAME_BYTES || CONTROL.test(wire.by)) {
      throw new InvalidArgumentError(
        `${where}.by must be a keeper address of at most ${MAX_NAME_BYTES} bytes, got ${JSON.stringify(wire.by)}`,
      );
    }
    const status = (Object.keys(STATUS_TO_WIRE) as MemberStatus[]).find(
      (s) => STATUS_TO_WIRE[s] === wire.status,
    );
    if (!status)
      throw new InvalidArgumentError(`${where}.status ${JSON.stringify(wire.status)} is not a membership`);
    const version = BigInt(wire.version || "0");
    if (version >= EPOCH_CEILING) {
      throw new InvalidArgumentError(`${where}.version ${version} is at or past 2^62`);
    }
    const kind = (Object.keys(KIND_TO_WIRE) as MemberKind[]).find((k) => KIND_TO_WIRE[k] === wire.kind);
    if (!kind) throw new InvalidArgumentError(`${where}.kind ${JSON.stringify(wire.kind)} is not a ring`);
    const slot = kind === "keeper" ? wire.slot : 0;
    if (!Number.isInteger(slot) || slot < 0 || slot >= KEEPER_SLOTS) {
      throw new InvalidArgumentError(`${where}.slot ${slot} is not a keeper slot (0 to ${KEEPER_SLOTS - 1})`);
    }
    return { address: wire.address, kind, slot, zone: wire.zone, status, version, by: wire.by };
  });
}
