// The health state machine on a fake clock: misses, the lease rule, rejoin.
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { BackendHealth, type ProbeReply } from "../src/backend-health.js";

const LEASE_MS = 2500;
const MISSES = 3;

function reply(overrides: Partial<ProbeReply> = {}): ProbeReply {
  return {
    incarnation: "a",
    ready: true,
    needsFill: false,
    storeOk: true,
    epoch: 1n,
    clock: 1n,
    keys: 0,
    lists: 0,
    bins: 0,
    claimedBy: "",
    ...overrides,
  };
}

function readyBackend(now = 0): BackendHealth {
  const health = new BackendHealth("b:1", pino({ level: "silent" }), now);
  health.answered(reply(), now);
  health.vouchedIncarnation = "a";
  health.apply("taken-over", { to: "ready" });
  health.lastGrantAt = now;
  return health;
}

describe("BackendHealth", () => {
  it("goes ready -> suspect on a miss and back to ready on an answer", () => {
    const health = readyBackend();
    expect(health.missed(1000, MISSES, LEASE_MS)).toBe("alive");
    expect(health.state).toBe("suspect");
    expect(health.answered(reply(), 1500)).toBe("steady");
    expect(health.state).toBe("ready");
    expect(health.misses).toBe(0);
  });

  it("is not dead after enough misses while its lease may still run", () => {
    const health = readyBackend();
    health.lastGrantAt = 2000;
    health.missed(2100, MISSES, LEASE_MS);
    health.missed(2200, MISSES, LEASE_MS);
    expect(health.missed(2300, MISSES, LEASE_MS)).toBe("alive");
    expect(health.state).toBe("suspect");
    expect(health.missed(4600, MISSES, LEASE_MS)).toBe("died");
    expect(health.state).toBe("dead");
  });

  it("fills a dead backend only once the incarnation answering had its store emptied", () => {
    const health = readyBackend();
    for (let at = 3000; health.state !== "dead"; at += 1000) health.missed(at, MISSES, LEASE_MS);
    const back = reply({ ready: false });
    expect(health.mustBeEmptied(back)).toBe(true);
    health.heard(back, 9000);
    expect(health.state).toBe("dead");
    expect(health.misses).toBe(0);
    health.wipedIncarnation = "a";
    // Restarted after it was emptied: its store may hold its old entries again.
    expect(health.mustBeEmptied(reply({ ready: false, incarnation: "b" }))).toBe(true);
    expect(health.mustBeEmptied(back)).toBe(false);
    expect(health.answered(back, 9500)).toBe("rejoined");
    expect(health.state).toBe("filling");
    expect(health.mustBeEmptied(back)).toBe(false);
    // Restarted during the fill: the store that came back may be older than the empty.
    expect(health.mustBeEmptied(reply({ ready: false, incarnation: "c" }))).toBe(true);
    // Ready again: a restart from now on missed seconds at most, and is filled without emptying.
    health.apply("filled");
    expect(health.mustBeEmptied(reply({ ready: false, incarnation: "c" }))).toBe(false);
    // Declared dead again: emptied again.
    health.lastGrantAt = 10_000;
    for (let at = 13_000; health.state !== "dead"; at += 1000) health.missed(at, MISSES, LEASE_MS);
    expect(health.mustBeEmptied(back)).toBe(true);
  });

  it("is not dead after a lapsed lease with fewer misses than required", () => {
    const health = readyBackend();
    health.missed(3000, MISSES, LEASE_MS);
    expect(health.missed(4000, MISSES, LEASE_MS)).toBe("alive");
    expect(health.state).toBe("suspect");
  });

  it("a 2 s silence at one probe per second is at most two misses: never dead", () => {
    const health = readyBackend();
    expect(health.missed(1000, MISSES, LEASE_MS)).toBe("alive");
    expect(health.missed(2000, MISSES, LEASE_MS)).toBe("alive");
    health.answered(reply(), 3000);
    expect(health.state).toBe("ready");
  });

  it("a dead backend that answers again must be filled", () => {
    const health = readyBackend();
    for (const now of [1000, 2000, 3000]) health.missed(now, MISSES, LEASE_MS);
    expect(health.state).toBe("dead");
    expect(health.answered(reply({ ready: false }), 9000)).toBe("rejoined");
    expect(health.state).toBe("filling");
  });

  it("a restart (new incarnation) or a store failure sends a ready backend to filling", () => {
    const restarted = readyBackend();
    expect(restarted.answered(reply({ incarnation: "b" }), 1000)).toBe("rejoined");
    expect(restarted.state).toBe("filling");
    const refused = readyBackend();
    expect(refused.answered(reply({ needsFill: true }), 1000)).toBe("rejoined");
    expect(refused.state).toBe("filling");
    // Already filling: further answers do not restart the fill.
    expect(refused.answered(reply({ needsFill: true }), 2000)).toBe("steady");
  });

  it("a ready or suspect backend whose lease lapsed is granted again, without a fill", () => {
    const suspect = readyBackend();
    suspect.missed(1000, MISSES, LEASE_MS);
    expect(suspect.state).toBe("suspect");
    expect(suspect.answered(reply({ ready: false }), 2700)).toBe("lapsed");
    expect(suspect.state).toBe("ready");
    const ready = readyBackend();
    expect(ready.answered(reply({ ready: false }), 500)).toBe("lapsed");
    expect(ready.state).toBe("ready");
    // Once dead it was repaired around: answering not ready then means a fill.
    for (const now of [1000, 2000, 3100]) ready.missed(now, MISSES, LEASE_MS);
    expect(ready.state).toBe("dead");
    expect(ready.answered(reply({ ready: false }), 9000)).toBe("rejoined");
  });

  it("taken over before this keeper heard it: another incarnation is a restart, and nothing known means a fill", () => {
    const takenOver = () => {
      const health = new BackendHealth("b:3", pino({ level: "silent" }), 0);
      health.apply("taken-over", { to: "suspect" });
      return health;
    };
    // The soak found this: a takeover keeper re-granted a backend that had restarted on stale data.
    const restarted = takenOver();
    restarted.vouchedIncarnation = "a";
    expect(restarted.answered(reply({ incarnation: "b", ready: false }), 1000)).toBe("rejoined");
    expect(restarted.state).toBe("filling");
    const paused = takenOver();
    paused.vouchedIncarnation = "a";
    expect(paused.answered(reply({ incarnation: "a", ready: false }), 1000)).toBe("lapsed");
    const unknown = takenOver();
    expect(unknown.answered(reply({ incarnation: "a", ready: false }), 1000)).toBe("rejoined");
    expect(unknown.state).toBe("filling");
  });

  it("taken over after this keeper heard the restarted backend as a standby: still a restart, filled", () => {
    // A chaos run found this: a keeper back from a restart heard a backend that had just restarted on
    // an empty store (incarnation b) before it took its slice back; the view still vouched for a.
    // Comparing with what it heard as a standby, it saw no restart, took the lapsed lease for a
    // pause and made the empty backend ready: reads then missed acknowledged appends.
    const health = new BackendHealth("b:4", pino({ level: "silent" }), 0);
    health.heard(reply({ incarnation: "b", ready: false }), 500);
    health.vouchedIncarnation = "a";
    health.apply("taken-over", { to: "ready" });
    expect(health.answered(reply({ incarnation: "b", ready: false }), 1000)).toBe("rejoined");
    expect(health.state).toBe("filling");
    // From then on it is this keeper's own answers that count.
    expect(health.answered(reply({ incarnation: "b", ready: false }), 2000)).toBe("steady");
  });

  it("a backend never heard from dies once an earlier keeper's lease must have lapsed", () => {
    const health = new BackendHealth("b:2", pino({ level: "silent" }), 0);
    health.missed(1000, MISSES, LEASE_MS);
    expect(health.missed(2000, MISSES, LEASE_MS)).toBe("alive");
    expect(health.missed(3000, MISSES, LEASE_MS)).toBe("died");
  });

  it("is not dead while another keeper's lease on it may still run, however many misses", () => {
    const health = readyBackend(0);
    for (let t = 1000; t <= 10_000; t += 1000)
      expect(health.missed(t, MISSES, LEASE_MS, false)).toBe("alive");
    expect(health.missed(11_000, MISSES, LEASE_MS, true)).toBe("died");
  });
});
