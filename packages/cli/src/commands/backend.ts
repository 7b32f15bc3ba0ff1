// `binring backend`: runs one backend until SIGTERM or SIGINT.
import { DEFAULT_TOMBSTONE_TTL_MS, startBackend } from "@binring/backend";
import {
  flagName,
  parseAddress,
  parseDuration,
  parseFlags,
  parseNonNegativeInt,
  parsePositiveInt,
} from "../args.js";
import { CliError } from "../cli-error.js";
import { createLogger } from "../logger.js";
import { onShutdown } from "../shutdown.js";

export const BACKEND_USAGE = `binring backend --listen HOST:PORT (--redis URL | --store memory) [--ready]
    [--max-key-bytes N] [--max-value-bytes N] [--key-prefix P] [--read-cache-mb 64] [--tombstone-ttl 24h]
    [--appendfsync always|everysec]`;

/** --appendfsync: Redis's fsync policy, set by the backend on every connection. */
function appendfsync(value: string | undefined): "always" | "everysec" | undefined {
  if (value === undefined || value === "always" || value === "everysec") return value;
  throw new CliError(`${flagName("appendfsync")} must be always or everysec, got ${JSON.stringify(value)}`);
}

/** --read-cache-mb in bytes; undefined leaves the engine's default. */
function readCacheBytes(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return parseNonNegativeInt("read-cache-mb", value, 0) * 1024 * 1024;
}

export async function backendCommand(args: string[]): Promise<void> {
  const { values } = parseFlags("backend", args, {
    listen: { type: "string" },
    redis: { type: "string" },
    store: { type: "string" },
    ready: { type: "boolean" },
    "key-prefix": { type: "string" },
    "max-key-bytes": { type: "string" },
    "max-value-bytes": { type: "string" },
    "read-cache-mb": { type: "string" },
    "tombstone-ttl": { type: "string" },
    appendfsync: { type: "string" },
  });
  const listen = parseAddress("listen", values.listen ?? "127.0.0.1:0");
  const storeKind = values.store ?? (values.redis ? "redis" : undefined);
  if (storeKind !== "redis" && storeKind !== "memory") {
    throw new CliError(
      `binring backend: give --redis URL or --store memory (got ${flagName("store")} ${JSON.stringify(values.store)})`,
    );
  }
  if (storeKind === "redis" && !values.redis?.startsWith("redis://")) {
    throw new CliError(`${flagName("redis")} must be a redis:// URL, got ${JSON.stringify(values.redis)}`);
  }
  const logger = createLogger("backend");
  const backend = await startBackend({
    listen,
    store:
      storeKind === "memory"
        ? { engine: "memory" }
        : {
            engine: "redis",
            url: values.redis!,
            keyPrefix: values["key-prefix"],
            readCacheBytes: readCacheBytes(values["read-cache-mb"]),
            appendfsync: appendfsync(values.appendfsync),
          },
    ready: values.ready,
    tombstoneTtlMs: parseDuration("tombstone-ttl", values["tombstone-ttl"], DEFAULT_TOMBSTONE_TTL_MS),
    limits: {
      maxKeyBytes: parsePositiveInt("max-key-bytes", values["max-key-bytes"], 4096),
      maxValueBytes: parsePositiveInt("max-value-bytes", values["max-value-bytes"], 1024 * 1024),
    },
    logger,
  });
  onShutdown(logger, () => backend.close());
}
