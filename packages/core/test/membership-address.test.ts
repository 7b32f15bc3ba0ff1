// Which addresses may name a member: host:port (an IPv6 literal in brackets)
// with a real port, at most 255 bytes, and a host the others can reach (not
// 0.0.0.0 or ::, where a server listens on every interface).
import { describe, expect, it } from "vitest";
import {
  isBackendAddress,
  isWildcardAddress,
  memberAddressProblem,
  membersFromWire,
  zoneProblem,
} from "../src/index.js";

describe("member addresses", () => {
  it("takes host:port up to 255 bytes, counting bytes rather than characters", () => {
    expect(isBackendAddress("127.0.0.1:7100")).toBe(true);
    expect(isBackendAddress("backend-0.binring:65535")).toBe(true);
    expect(isBackendAddress("backend-0.binring:65536")).toBe(false);
    expect(isBackendAddress(`${"a".repeat(249)}:65535`)).toBe(true);
    expect(isBackendAddress(`${"a".repeat(250)}:65535`)).toBe(false);
    // 87 characters, 257 bytes: "€" is three.
    expect(isBackendAddress(`${"€".repeat(85)}:1`)).toBe(false);
    expect(isBackendAddress("[::1]:7100")).toBe(true);
    expect(isBackendAddress("[fd00::2]:65536")).toBe(false);
    expect(isBackendAddress("::1:7100")).toBe(false);
  });

  it("refuses every spelling of 0.0.0.0 as a member's host", () => {
    for (const address of ["0.0.0.0:7100", "0:7100", "00.0.0.000:1", "[::]:7100", "[0:0::0]:1"]) {
      expect(isWildcardAddress(address)).toBe(true);
      expect(memberAddressProblem(address)).toMatch(/names no host the others can reach/);
    }
    for (const address of ["0.0.0.1:7100", "10.0.0.0:7100", "127.0.0.1:7100", "zero:0", "[::1]:7100"]) {
      expect(isWildcardAddress(address)).toBe(false);
    }
    expect(memberAddressProblem("127.0.0.1:7100")).toBeUndefined();
    expect(memberAddressProblem("nohost")).toBe('must be "host:port", got "nohost"');
  });
});

describe("zones and control characters", () => {
  it("refuses a control character in an address or a zone, and a zone past 255 bytes", () => {
    expect(isBackendAddress("a\u0000b:7100")).toBe(false);
    expect(isBackendAddress("a\u001b[2J:7100")).toBe(false);
    expect(isBackendAddress("a\u0085b:7100")).toBe(false);
    expect(zoneProblem("")).toBeUndefined();
    expect(zoneProblem("eu-west-1a")).toBeUndefined();
    expect(zoneProblem("zone é")).toBeUndefined();
    expect(zoneProblem("a\nb")).toBe('holds a control character: "a\\nb"');
    expect(zoneProblem("a\u0000member")).toMatch(/control character/);
    expect(zoneProblem("z".repeat(256))).toBe("is 256 bytes, at most 255");
  });

  it("refuses records from the wire whose zone or keeper holds one", () => {
    const record = {
      address: "127.0.0.1:7100",
      kind: "MEMBER_KIND_BACKEND",
      slot: 0,
      zone: "",
      status: "MEMBER_STATUS_MEMBER",
      version: "1",
      by: "127.0.0.1:7600",
    } as const;
    expect(membersFromWire("members", [record])[0]!.zone).toBe("");
    expect(() => membersFromWire("members", [{ ...record, zone: "a\u0000b" }])).toThrow(
      /members\[0\]\.zone holds a control character/,
    );
    expect(() => membersFromWire("members", [{ ...record, by: "k\u0000" }])).toThrow(
      /members\[0\]\.by must be a keeper address/,
    );
  });
});
