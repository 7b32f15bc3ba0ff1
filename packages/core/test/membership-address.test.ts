// Which addresses may name a member: host:port with a real port, at most 255
// bytes, and a host the others can reach (not 0.0.0.0, where a server listens
// on every interface).
import { describe, expect, it } from "vitest";
import { isBackendAddress, isWildcardAddress, memberAddressProblem } from "../src/index.js";

describe("member addresses", () => {
  it("takes host:port up to 255 bytes, counting bytes rather than characters", () => {
    expect(isBackendAddress("127.0.0.1:7100")).toBe(true);
    expect(isBackendAddress("backend-0.binring:65535")).toBe(true);
    expect(isBackendAddress("backend-0.binring:65536")).toBe(false);
    expect(isBackendAddress(`${"a".repeat(249)}:65535`)).toBe(true);
    expect(isBackendAddress(`${"a".repeat(250)}:65535`)).toBe(false);
    // 87 characters, 257 bytes: "€" is three.
    expect(isBackendAddress(`${"€".repeat(85)}:1`)).toBe(false);
  });

  it("refuses every spelling of 0.0.0.0 as a member's host", () => {
    for (const address of ["0.0.0.0:7100", "0:7100", "00.0.0.000:1"]) {
      expect(isWildcardAddress(address)).toBe(true);
      expect(memberAddressProblem(address)).toMatch(/names no host the others can reach/);
    }
    for (const address of ["0.0.0.1:7100", "10.0.0.0:7100", "127.0.0.1:7100", "zero:0"]) {
      expect(isWildcardAddress(address)).toBe(false);
    }
    expect(memberAddressProblem("127.0.0.1:7100")).toBeUndefined();
    expect(memberAddressProblem("nohost")).toBe('must be "host:port", got "nohost"');
  });
});
