// The Status reply carries the keeper's report field for field: a report
// encoded by the keeper and decoded by @binring/client is the same JSON
// document, key order included, that HTTP /status serves (a public contract).
import { type KeeperStatus, keeperStatusFromWire } from "@binring/client";
import { loadProtocol, type StatusReply__Output } from "@binring/core";
import { describe, expect, it } from "vitest";
import { statusToWire } from "../src/status-message.js";

/** A report as Keeper.status() builds it: every kind of backend and repair entry. */
const REPORT: KeeperStatus = {
  keeper: "k0",
  address: "127.0.0.1:7000",
  epoch: "4611686018427387903",
  beatsSent: 42,
  keepers: [
    {
      address: "127.0.0.1:7000",
      self: true,
      alive: true,
      cutOff: false,
      slice: ["b0", "b1"],
      working: ["b1"],
      leaving: false,
    },
    {
      address: "127.0.0.1:7001",
      self: false,
      alive: false,
      cutOff: false,
      slice: [],
      working: [],
      leaving: true,
    },
    {
      address: "127.0.0.1:7002",
      self: false,
      alive: true,
      cutOff: true,
      slice: ["b2"],
      working: [],
      leaving: false,
    },
  ],
  backends: [
    {
      address: "b0",
      state: "ready",
      owner: "127.0.0.1:7000",
      misses: 0,
      clock: "9007199254740993",
      keys: 10,
      lists: 2,
      bins: 3,
      lastAnswerMsAgo: 12,
      claimedBy: "127.0.0.1:7000",
      zone: "zone-a",
      leaving: false,
    },
    {
      address: "b1",
      state: "suspect",
      owner: null,
      misses: 3,
      clock: null,
      keys: null,
      lists: null,
      bins: null,
      lastAnswerMsAgo: 0,
      claimedBy: null,
      zone: "",
      leaving: true,
    },
    ...(["unknown", "dead", "filling"] as const).map((state) => ({
      address: `b-${state}`,
      state,
      owner: "127.0.0.1:7001",
      misses: 1,
      clock: "0",
      keys: 0,
      lists: 0,
      bins: 0,
      lastAnswerMsAgo: 5,
      claimedBy: "127.0.0.1:7002",
      zone: "",
      leaving: false,
    })),
  ],
  repairs: [
    {
      id: "r1",
      kind: "fill",
      backend: "b1",
      state: "running",
      recovered: false,
      runningMs: 250,
      entriesCopied: 0,
      bytesCopied: 4096,
      tasksDone: 1,
      tasksTotal: 4,
      bytesPerSecond: 16384,
      etaMs: 750,
    },
    { id: "r2", kind: "repair", backend: "b0", state: "queued" },
    { id: "r3", kind: "repair", backend: "b2", state: "committing" },
    { kind: "recovery", backend: "b3", state: "reading the keeper log" },
  ],
  completedRepairs: [{ id: "r0", kind: "repair", backend: "b9", entries: 1000, ms: 37, recovered: true }],
  offRing: true,
};

/** Through the real Status serializers, as the reply crosses the wire. */
function overTheWire(report: KeeperStatus): KeeperStatus {
  const method = loadProtocol().Keeper.service.Status;
  const bytes = method.responseSerialize(statusToWire(report));
  return keeperStatusFromWire(method.responseDeserialize(bytes) as StatusReply__Output);
}

describe("Keeper.Status reply", () => {
  it("decodes to the report it was made from, as the same JSON", () => {
    const decoded = overTheWire(REPORT);
    expect(decoded).toEqual(REPORT);
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(REPORT));
  });

  it("keeps an empty cluster empty", () => {
    const empty: KeeperStatus = {
      ...REPORT,
      epoch: "0",
      beatsSent: 0,
      keepers: [],
      backends: [],
      repairs: [],
      completedRepairs: [],
      offRing: false,
    };
    expect(JSON.stringify(overTheWire(empty))).toBe(JSON.stringify(empty));
  });
});
