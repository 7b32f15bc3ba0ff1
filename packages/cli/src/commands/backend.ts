// `binring backend`: runs one backend until SIGTERM or SIGINT; with --join it
// also asks the keepers to add it to the ring once it listens.
import { DEFAULT_TOMBSTONE_TTL_MS, startBackend } from "@binring/backend";
import { addBackend } from "@binring/client";
import { isBackendAddress, isWildcardAddress, roleFiles, zoneProblem } from "@binring/core";
import {
  flagName,
  formatDuration,
  parseAddress,
  parseDuration,
  parseFlags,
  parseNonNegativeInt,
  parsePositiveInt,
} from "../args.js";
import { CliError } from "../cli-error.js";
import { readClusterFile } from "../cluster-file.js";
import { defineCommand } from "../command.js";
import { joinRing } from "../join-ring.js";
import { lookUpKeepers } from "../keeper-lookup.js";
import { createLogger } from "../logger.js";
import { reloadOnHangup, SERVER_SECURITY_FLAGS, serverTls } from "../server-security.js";
import { onShutdown } from "../shutdown.js";

export const BACKEND = defineCommand({
  name: "backend",
  summary: "run one backend (a gRPC server over its own Redis, or memory) until SIGTERM or SIGINT",
  synopsis: "(--redis URL | --store memory) [options]",
  flags: {
    listen: {
      type: "string",
      value: "HOST:PORT",
      default: "127.0.0.1:0",
      description: "address to serve gRPC on; port 0 picks a free one and logs it",
    },
    http: {
      type: "string",
      value: "HOST:PORT",
      description:
        "address to serve HTTP /metrics (Prometheus) on; port 0 picks a free one and logs it; none without it",
    },
    redis: {
      type: "string",
      value: "URL",
      description:
        "the backend's own Redis: redis://[:PASSWORD@]HOST:PORT, or unix:///PATH/redis.sock[?password=PASSWORD] on this machine (cheaper per call)",
    },
    store: {
      type: "string",
      value: "redis|memory",
      derivedDefault: "redis when --redis is given",
      description: "storage engine (memory keeps nothing on restart)",
    },
    ready: {
      type: "boolean",
      description: "serve reads at once (a standalone backend, or a fresh cluster's first start)",
    },
    "key-prefix": {
      type: "string",
      value: "P",
      description: "prefix of every Redis key this backend writes",
    },
    "max-key-bytes": {
      type: "string",
      value: "N",
      default: "4096",
      description: "longest key or bin name, in UTF-8 bytes (at most 65536)",
    },
    "max-value-bytes": {
      type: "string",
      value: "N",
      default: "1048576",
      description: "longest value, in UTF-8 bytes (at most 8 MiB)",
    },
    "read-cache-mb": {
      type: "string",
      value: "N",
      default: "64",
      description: "MiB of string values answered from memory; 0 turns the cache off",
    },
    "tombstone-ttl": {
      type: "string",
      value: "DURATION",
      default: formatDuration(DEFAULT_TOMBSTONE_TTL_MS),
      description: "how long a deleted key's or removed value's tombstone is kept",
    },
    appendfsync: {
      type: "string",
      value: "always|everysec",
      description: "Redis's fsync policy, set on every connection; without it Redis's own setting stands",
    },
    join: {
      type: "boolean",
      description:
        "once listening, ask the keepers of --config to add this backend to the ring (as binring admin add-backend does), until one does",
    },
    config: {
      type: "string",
      value: "FILE",
      default: "binring.json",
      description: "with --join: the cluster file naming the keepers",
    },
    advertise: {
      type: "string",
      value: "HOST:PORT",
      derivedDefault: "the address it listens on",
      description:
        "with --join: the address the cluster reaches this backend at (needed when --listen is 0.0.0.0, which names no host)",
    },
    zone: { type: "string", value: "ZONE", description: "with --join: this backend's failure domain" },
    ...SERVER_SECURITY_FLAGS,
  },
  example: "binring backend --listen 127.0.0.1:7100 --http 127.0.0.1:7900 --redis redis://127.0.0.1:6379",
});

/** --appendfsync: Redis's fsync policy, set by the backend on every connection. */
function appendfsync(value: string | undefined): "always" | "everysec" | undefined {
  if (value === undefined || value === "always" || value === "everysec") return value;
  throw new CliError(`${flagName("appendfsync")} must be always or everysec, got ${JSON.stringify(value)}`);
}

export async function backendCommand(args: string[]): Promise<void> {
  const { values } = parseFlags(BACKEND, args);
  const listen = parseAddress("listen", values.listen);
  const http = values.http === undefined ? undefined : parseAddress("http", values.http);
  const storeKind = values.store ?? (values.redis ? "redis" : undefined);
  if (storeKind === undefined) throw new CliError("binring backend: give --redis URL or --store memory");
  if (storeKind !== "redis" && storeKind !== "memory") {
    throw new CliError(
      `binring backend: give --redis URL or --store memory (got ${flagName("store")} ${JSON.stringify(values.store)})`,
    );
  }
  if (storeKind === "redis" && values.redis === undefined) {
    throw new CliError(`${flagName("store")} redis needs ${flagName("redis")} URL`);
  }
  if (storeKind === "redis" && !/^(redis:\/\/|unix:\/\/\/)/.test(values.redis ?? "")) {
    throw new CliError(
      `${flagName("redis")} must be a redis://HOST:PORT or unix:///PATH URL, got ${JSON.stringify(values.redis)}`,
    );
  }
  const tls = serverTls("backend", "backend", listen, values);
  if (!values.join && (values.advertise !== undefined || values.zone !== undefined)) {
    throw new CliError(`${flagName("advertise")} and ${flagName("zone")} need ${flagName("join")}`);
  }
  if (values.advertise !== undefined && !isBackendAddress(values.advertise)) {
    throw new CliError(
      `${flagName("advertise")} must be "host:port", got ${JSON.stringify(values.advertise)}`,
    );
  }
  const zoneIssue = values.zone === undefined ? undefined : zoneProblem(values.zone);
  if (zoneIssue !== undefined) throw new CliError(`${flagName("zone")} ${zoneIssue}`);
  if (values.join && isWildcardAddress(values.advertise ?? listen)) {
    throw new CliError(
      `${flagName("join")}: ${values.advertise ?? listen} listens on every interface but names no host the cluster can reach this backend at: give ${flagName("advertise")} HOST:PORT`,
    );
  }
  const cluster = values.join ? readClusterFile(values.config) : undefined;
  const keepers = cluster?.keepers ?? [];
  if (values.join && keepers.length === 0) {
    throw new CliError(`${flagName("join")}: the cluster file ${values.config} lists no keepers`);
  }
  const logger = createLogger("backend");
  const starting = startBackend({
    listen,
    tls,
    http,
    processMetrics: true,
    store:
      storeKind === "memory"
        ? { engine: "memory" }
        : {
            engine: "redis",
            url: values.redis!,
            keyPrefix: values["key-prefix"],
            readCacheBytes: parseNonNegativeInt("read-cache-mb", values["read-cache-mb"]) * 1024 * 1024,
            appendfsync: appendfsync(values.appendfsync),
          },
    ready: values.ready,
    tombstoneTtlMs: parseDuration("tombstone-ttl", values["tombstone-ttl"], Number.MAX_SAFE_INTEGER),
    limits: {
      maxKeyBytes: parsePositiveInt("max-key-bytes", values["max-key-bytes"]),
      maxValueBytes: parsePositiveInt("max-value-bytes", values["max-value-bytes"]),
    },
    logger,
  });
  // Stopping is handled from before "backend listening" is logged: whoever waits for that line may signal at once.
  let stopping = false;
  onShutdown(logger, async () => {
    stopping = true;
    await (await starting).close();
  });
  const backend = await starting;
  reloadOnHangup(logger, tls);
  if (values.join) {
    const address = values.advertise ?? backend.address;
    const zone = values.zone ?? "";
    void joinRing({
      what: "backend",
      address,
      keepers,
      // A backend's own certificate may not change membership: it joins with the admin's beside it.
      tls: values["tls-dir"] === undefined ? undefined : roleFiles(values["tls-dir"], "admin"),
      logger,
      stopped: () => stopping,
      ask: (keeper, tls) => addBackend(keeper, address, zone, tls),
      lookup: (start, tls) => lookUpKeepers(start, tls, cluster?.backends),
    });
  }
}
