// The cluster file (binring.json): which backends and keepers make the
// cluster, plus optional settings. Validated on load, naming the bad field.
import { InvalidArgumentError } from "./errors.js";

export interface ClusterConfig {
  /** Backend addresses (host:port), in any order: placement hashes them. */
  backends: string[];
  /** Keeper addresses (host:port). @default [] */
  keepers: string[];
  /** Deadline of one client operation, retries included. @default 10000 */
  callTimeoutMs?: number;
}

const ADDRESS = /^[^\s:]+:\d{1,5}$/;

function fail(source: string, message: string): never {
  throw new InvalidArgumentError(`${source}: ${message}`);
}

function addresses(source: string, field: string, value: unknown, required: boolean): string[] {
  if (value === undefined && !required) return [];
  if (!Array.isArray(value)) fail(source, `"${field}" must be an array of "host:port" strings`);
  const seen = new Set<string>();
  value.forEach((item, i) => {
    if (typeof item !== "string" || !ADDRESS.test(item) || Number(item.split(":").pop()) > 65535) {
      fail(source, `"${field}[${i}]" must be "host:port", got ${JSON.stringify(item)}`);
    }
    if (seen.has(item)) fail(source, `"${field}[${i}]" repeats ${item}`);
    seen.add(item);
  });
  if (required && seen.size === 0) fail(source, `"${field}" must list at least one backend`);
  return [...seen];
}

/** Checks a parsed cluster file; `source` names it in errors (a path). */
export function parseClusterConfig(raw: unknown, source = "cluster config"): ClusterConfig {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) fail(source, "must be a JSON object");
  const record = raw as Record<string, unknown>;
  const config: ClusterConfig = {
    backends: addresses(source, "backends", record.backends, true),
    keepers: addresses(source, "keepers", record.keepers, false),
  };
  if (record.callTimeoutMs !== undefined) {
    const timeout = record.callTimeoutMs;
    if (typeof timeout !== "number" || !Number.isInteger(timeout) || timeout < 1) {
      fail(source, `"callTimeoutMs" must be a positive integer, got ${JSON.stringify(timeout)}`);
    }
    config.callTimeoutMs = timeout;
  }
  return config;
}
