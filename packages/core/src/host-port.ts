// Addresses as the cluster names members, listeners and links: "host:port",
// an IPv6 literal in brackets ("[::1]:7100", as in URLs and gRPC targets).
// The bracketed form is the address everywhere it is stored, compared or
// printed; sockets take the bare host.
import { isIPv6 } from "node:net";

export interface HostPort {
  /** The host as a socket takes it: an IPv6 literal without its brackets. */
  host: string;
  port: number;
}

/** A host name or IPv4 address: no colon, space, bracket or control character. */
const NAMED = /^([^\s:[\]\p{Cc}]+):(\d{1,5})$/u;
const BRACKETED = /^\[([^\]]+)\]:(\d{1,5})$/;

/** Splits "host:port" or "[v6]:port"; undefined when it is neither or the port is past 65535. */
export function parseHostPort(address: string): HostPort | undefined {
  const named = NAMED.exec(address);
  const bracketed = named ? undefined : BRACKETED.exec(address);
  if (bracketed && !isIPv6(bracketed[1]!)) return undefined;
  const match = named ?? bracketed;
  if (!match) return undefined;
  const port = Number(match[2]);
  return port > 65535 ? undefined : { host: match[1]!, port };
}

/** The address of `host` (as a socket takes it, HostPort.host) at `port`: an IPv6 literal in brackets. */
export function formatHostPort(host: string, port: number): string {
  return isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * Is the host every interface (0.0.0.0 or a way to spell it, such as 0; "::"
 * or all zeros for IPv6)? A server listens there; as an address to reach a
 * member at, it names no host: each caller would reach itself.
 */
export function isWildcardHost(host: string): boolean {
  if (isIPv6(host)) return host.split(":").every((group) => /^0*$/.test(group));
  return /^0+(\.0+){0,3}$/.test(host);
}
