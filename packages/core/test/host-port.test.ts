// Addresses name an IPv6 literal in brackets; sockets take it bare, and an
// address formatted from a bound host and port reads back the same.
import { describe, expect, it } from "vitest";
import { formatHostPort, isWildcardHost, parseHostPort } from "../src/index.js";

describe("host:port addresses", () => {
  it("split host names, IPv4 and bracketed IPv6 literals, up to port 65535", () => {
    expect(parseHostPort("backend-0.binring:7100")).toEqual({ host: "backend-0.binring", port: 7100 });
    expect(parseHostPort("127.0.0.1:0")).toEqual({ host: "127.0.0.1", port: 0 });
    expect(parseHostPort("[::1]:65535")).toEqual({ host: "::1", port: 65535 });
    expect(parseHostPort("[fd00::2]:7100")).toEqual({ host: "fd00::2", port: 7100 });
    expect(parseHostPort("[::ffff:127.0.0.1]:1")).toEqual({ host: "::ffff:127.0.0.1", port: 1 });
  });

  it("refuse what is neither, naming no host a socket would misread", () => {
    for (const address of [
      "::1:7100",
      "[::1]",
      "[::1]:",
      "[::1]:65536",
      "[fe80::zz]:7100",
      "[backend-0]:7100",
      "[127.0.0.1]:7100",
      "a[b]:7100",
      "host:123456",
      "host",
      ":7100",
      "a b:7100",
      "a\u0000b:7100",
    ]) {
      expect(parseHostPort(address), address).toBeUndefined();
    }
  });

  it("format an IPv6 host in brackets, bare or bracketed, and every other host as it is", () => {
    expect(formatHostPort("::1", 7100)).toBe("[::1]:7100");
    expect(formatHostPort("[::1]", 0)).toBe("[::1]:0");
    expect(formatHostPort("127.0.0.1", 7100)).toBe("127.0.0.1:7100");
    expect(formatHostPort("backend-0", 7100)).toBe("backend-0:7100");
    expect(parseHostPort(formatHostPort("fd00::2", 9))).toEqual({ host: "fd00::2", port: 9 });
  });

  it("know every spelling of the wildcard, IPv4 and IPv6", () => {
    for (const host of ["0.0.0.0", "0", "00.0.0.000", "::", "0::0", "0:0:0:0:0:0:0:0"]) {
      expect(isWildcardHost(host), host).toBe(true);
    }
    for (const host of ["0.0.0.1", "10.0.0.0", "::1", "fd00::", "zero"]) {
      expect(isWildcardHost(host), host).toBe(false);
    }
  });
});
