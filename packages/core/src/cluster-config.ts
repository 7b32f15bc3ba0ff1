// The cluster file (binring.json): which backends and keepers make the
// cluster, plus optional settings. Validated on load, naming the bad field.
import { isAbsolute, resolve } from "node:path";
import { InvalidArgumentError } from "./errors.js";
import { memberAddressProblem, zoneProblem } from "./membership.js";
import type { TlsFiles } from "./transport-security.js";

export interface ClusterConfig {
  /** Backend addresses (host:port), in any order: placement hashes them. */
  backends: string[];
  /** Keeper addresses (host:port). @default [] */
  keepers: string[];
  /** Deadline of one client operation, retries included; at most MAX_CALL_TIMEOUT_MS. @default 10000 */
  callTimeoutMs?: number;
  /**
   * Zone (failure domain) of each backend, by address: a bin's backups go to
   * zones other than its primary's while there are enough. Backends left out
   * share the zone "". @default {} (zone-blind placement)
   */
  zones?: Record<string, string>;
  /**
   * Mutual TLS: the CA to trust and the certificate and key to present (PEM
   * files; relative paths are relative to the cluster file). @default plaintext
   */
  tls?: TlsFiles;
}

/**
 * The longest a client operation may take, retries included: backends keep
 * what a retried write needs (its stamp records and claim fences) for twice
 * this (HAZARDS.md 20).
 */
export const MAX_CALL_TIMEOUT_MS = 60_000;

/** The ring members of a cluster: each backend with its zone, if any. */
export function ringMembers(backends: readonly string[], zones: Readonly<Record<string, string>> = {}) {
  return backends.map((id) => (zones[id] === undefined ? { id } : { id, zone: zones[id] }));
}

function fail(source: string, message: string): never {
  throw new InvalidArgumentError(`${source}: ${message}`);
}

function addresses(source: string, field: string, value: unknown, required: boolean): string[] {
  if (value === undefined && !required) return [];
  if (!Array.isArray(value)) fail(source, `"${field}" must be an array of "host:port" strings`);
  const seen = new Set<string>();
  value.forEach((item, i) => {
    const problem =
      typeof item === "string"
        ? memberAddressProblem(item)
        : `must be "host:port", got ${JSON.stringify(item)}`;
    if (problem !== undefined) fail(source, `"${field}[${i}]" ${problem}`);
    if (seen.has(item)) fail(source, `"${field}[${i}]" repeats ${item}`);
    seen.add(item);
  });
  if (required && seen.size === 0) fail(source, `"${field}" must list at least one backend`);
  return [...seen];
}

function zones(source: string, value: unknown, backends: string[]): Record<string, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    fail(source, `"zones" must be an object mapping backend "host:port" to a zone name`);
  }
  const result: Record<string, string> = {};
  for (const [backend, zone] of Object.entries(value)) {
    if (!backends.includes(backend))
      fail(source, `"zones" names ${JSON.stringify(backend)}, not in "backends"`);
    if (typeof zone !== "string" || zone === "") {
      fail(source, `"zones.${backend}" must be a non-empty string, got ${JSON.stringify(zone)}`);
    }
    const problem = zoneProblem(zone);
    if (problem !== undefined) fail(source, `"zones.${backend}" ${problem}`);
    result[backend] = zone;
  }
  return result;
}

function tlsFiles(source: string, value: unknown, baseDir: string): TlsFiles {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    fail(source, `"tls" must be an object with "ca", "cert" and "key" file paths`);
  }
  const record = value as Record<string, unknown>;
  const file = (field: "ca" | "cert" | "key"): string => {
    const path = record[field];
    if (typeof path !== "string" || path === "") {
      fail(source, `"tls.${field}" must be a file path, got ${JSON.stringify(path)}`);
    }
    return isAbsolute(path) ? path : resolve(baseDir, path);
  };
  return { ca: file("ca"), cert: file("cert"), key: file("key") };
}

/**
 * Checks a parsed cluster file; `source` names it in errors (a path), and
 * relative TLS paths are resolved against `baseDir` (the file's directory).
 */
export function parseClusterConfig(raw: unknown, source = "cluster config", baseDir = "."): ClusterConfig {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) fail(source, "must be a JSON object");
  const record = raw as Record<string, unknown>;
  const config: ClusterConfig = {
    backends: addresses(source, "backends", record.backends, true),
    keepers: addresses(source, "keepers", record.keepers, false),
  };
  if (record.callTimeoutMs !== undefined) {
    const timeout = record.callTimeoutMs;
    if (
      typeof timeout !== "number" ||
      !Number.isInteger(timeout) ||
      timeout < 1 ||
      timeout > MAX_CALL_TIMEOUT_MS
    ) {
      fail(
        source,
        `"callTimeoutMs" must be a whole number of ms from 1 to ${MAX_CALL_TIMEOUT_MS}, got ${JSON.stringify(timeout)}`,
      );
    }
    config.callTimeoutMs = timeout;
  }
  if (record.zones !== undefined) config.zones = zones(source, record.zones, config.backends);
  if (record.tls !== undefined) config.tls = tlsFiles(source, record.tls, baseDir);
  return config;
}
