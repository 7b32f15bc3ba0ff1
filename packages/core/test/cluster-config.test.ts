// The cluster file: its addresses, optional "zones" (each names a listed backend and a non-empty zone) and "callTimeoutMs".
import { describe, expect, it } from "vitest";
import { MAX_CALL_TIMEOUT_MS, parseClusterConfig, ringMembers } from "../src/cluster-config.js";

const backends = ["10.0.0.1:7000", "10.0.0.2:7000"];

describe("cluster file zones", () => {
  it("keeps plain backend strings valid and gives listed backends their zone", () => {
    expect(parseClusterConfig({ backends }).zones).toBeUndefined();
    const config = parseClusterConfig({ backends, zones: { "10.0.0.1:7000": "zone-a" } });
    expect(ringMembers(config.backends, config.zones)).toEqual([
      { id: "10.0.0.1:7000", zone: "zone-a" },
      { id: "10.0.0.2:7000" },
    ]);
  });

  it.each([
    [["zone-a"], /"zones" must be an object/],
    [{ "10.0.0.9:7000": "zone-a" }, /"zones" names "10.0.0.9:7000", not in "backends"/],
    [{ "10.0.0.1:7000": "" }, /"zones.10.0.0.1:7000" must be a non-empty string, got ""/],
    [{ "10.0.0.1:7000": 3 }, /must be a non-empty string, got 3/],
  ])("refuses zones %j, naming the field", (zones, message) => {
    expect(() => parseClusterConfig({ backends, zones }, "binring.json")).toThrow(message);
  });
});

describe("cluster file callTimeoutMs", () => {
  it("takes a deadline up to MAX_CALL_TIMEOUT_MS, past which a retried write's records may be gone", () => {
    expect(parseClusterConfig({ backends, callTimeoutMs: MAX_CALL_TIMEOUT_MS }).callTimeoutMs).toBe(60_000);
    for (const callTimeoutMs of [0, 1.5, MAX_CALL_TIMEOUT_MS + 1, "10s"]) {
      expect(() => parseClusterConfig({ backends, callTimeoutMs }, "binring.json")).toThrow(
        `binring.json: "callTimeoutMs" must be a whole number of ms from 1 to 60000, got ${JSON.stringify(callTimeoutMs)}`,
      );
    }
  });
});

describe("cluster file addresses", () => {
  it.each([
    [{ backends: ["10.0.0.1:7000", "nohost"] }, /"backends\[1\]" must be "host:port", got "nohost"/],
    [{ backends: [7000] }, /"backends\[0\]" must be "host:port", got 7000/],
    [
      { backends: ["0.0.0.0:7000"] },
      /"backends\[0\]" 0\.0\.0\.0:7000 listens on every interface but names no host/,
    ],
    [{ backends, keepers: ["0.0.0.0:7600"] }, /"keepers\[0\]" 0\.0\.0\.0:7600 listens on every interface/],
    [{ backends: [`${"b".repeat(300)}:7000`] }, /"backends\[0\]" is 305 bytes, at most 255/],
  ])("refuses %j, naming the entry", (file, message) => {
    expect(() => parseClusterConfig(file, "binring.json")).toThrow(message);
  });
});
