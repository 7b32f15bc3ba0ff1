// Starts a backend: a store engine, a BackendNode and the gRPC server on one
// address. Used by `binring backend` and directly by tests and embedders.

import { systemTime } from "@binring/client";
import {
  addProcessMetrics,
  InvalidArgumentError,
  type Limits,
  MAX_MESSAGE_BYTES,
  parseLimits,
  securedServerOptions,
  type TlsFiles,
} from "@binring/core";
import * as grpc from "@grpc/grpc-js";
import { type Logger, pino } from "pino";
import { BackendMetrics } from "./backend-metrics.js";
import { BackendNode } from "./backend-node.js";
import { BackendPlacement } from "./backend-placement.js";
import { LinkListener } from "./link-listener.js";
import { MemoryEngine } from "./memory-engine.js";
import { startMetricsServer } from "./metrics-server.js";
import { PeerLinks } from "./peer-links.js";
import { RedisEngine } from "./redis-engine.js";
import { MAX_CONCURRENT_STREAMS, StorageService } from "./storage-service.js";
import type { StoreEngine } from "./store-engine.js";
import { TombstoneSweeper } from "./tombstone-sweeper.js";
import { WithheldRelease } from "./withheld-release.js";

export type StoreOptions =
  | { engine: "memory" }
  | {
      engine: "redis";
      url: string;
      keyPrefix?: string;
      readCacheBytes?: number;
      /** Redis's appendfsync, set on every connection: "always" survives power loss (docs/ARCHITECTURE.md, "Durability"). @default Redis's own setting */
      appendfsync?: "always" | "everysec";
      /** A Redis call not answered within this fails as store unavailable. @default REDIS_COMMAND_TIMEOUT_MS */
      commandTimeoutMs?: number;
    };

export interface BackendOptions {
  /** host:port to listen on; port 0 picks a free port. */
  listen: string;
  /** host:port to serve HTTP GET /metrics on (port 0 picks one). @default none: no metrics are kept */
  http?: string;
  /**
   * Also serve this process's CPU, memory, GC and event-loop delay on /metrics
   * (core/process-metrics.ts): for the one backend a process runs, as
   * `binring backend` does. @default false
   */
  processMetrics?: boolean;
  store: StoreOptions;
  limits?: Partial<Limits>;
  /** Serve ready-only reads from the start (standalone use, or a fresh cluster's first start). @default false */
  ready?: boolean;
  /** How long start waits for the store before serving anyway (calls fail UNAVAILABLE until it answers). @default 10000 */
  storeWaitMs?: number;
  /**
   * How long a tombstone (a deleted string key, a list value's latest remove)
   * is kept before the background sweep drops it. It must outlast the longest
   * fill and any write in flight: see docs/ARCHITECTURE.md, "Tombstones".
   * @default 86400000 (24 h)
   */
  tombstoneTtlMs?: number;
  /** @default a silent logger */
  logger?: Logger;
  /** Mutual TLS with the backend certificate; callers are admitted by role (core/transport-security.ts). @default plaintext */
  tls?: TlsFiles;
}

export interface RunningBackend {
  /** host:port actually bound. */
  address: string;
  /** host:port actually bound for HTTP /metrics; undefined without `http`. */
  httpAddress: string | undefined;
  node: BackendNode;
  /** Drops old tombstones every quarter TTL; `sweep()` runs one now. */
  sweeper: TombstoneSweeper;
  /** Stops accepting calls, lets running ones finish briefly, and releases the port and the store. */
  close(): Promise<void>;
}

/** Time given to in-flight calls on close before they are cancelled. */
const SHUTDOWN_GRACE_MS = 2000;
const STORE_RETRY_MS = 200;
export const DEFAULT_TOMBSTONE_TTL_MS = 24 * 60 * 60 * 1000;
/** Below this a TTL is for tests: fills, writes in flight and retried removes can outlast it. */
const SHORT_TOMBSTONE_TTL_MS = 60 * 60 * 1000;

export function openEngine(
  store: StoreOptions,
  logger?: Logger,
  observeCall?: (seconds: number) => void,
): StoreEngine {
  return store.engine === "memory" ? new MemoryEngine() : new RedisEngine({ ...store, logger, observeCall });
}

export async function startBackend(options: BackendOptions): Promise<RunningBackend> {
  const logger = options.logger ?? pino({ level: "silent" });
  const limits = parseLimits(options.limits);
  const tombstoneTtlMs = options.tombstoneTtlMs ?? DEFAULT_TOMBSTONE_TTL_MS;
  if (!Number.isSafeInteger(tombstoneTtlMs) || tombstoneTtlMs < 1)
    throw new InvalidArgumentError(
      `tombstoneTtlMs must be a positive whole number of ms, got ${tombstoneTtlMs}`,
    );
  const metrics = options.http === undefined ? undefined : new BackendMetrics();
  const engine = openEngine(options.store, logger, metrics && ((seconds) => metrics.redisCall(seconds)));
  const node = new BackendNode({ engine, limits, ready: options.ready, logger });
  metrics?.watch(node);
  if (metrics && options.processMetrics) addProcessMetrics(metrics.registry);
  engine.onReset((reason) => logger.warn({ reason }, "store restarted: not ready until refilled"));
  const server = new grpc.Server({
    ...securedServerOptions(options.tls),
    "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
    "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
    // Streams per HTTP/2 connection: with MAX_OPERATIONS_IN_FLIGHT per stream, this caps what one connection can start.
    "grpc.max_concurrent_streams": MAX_CONCURRENT_STREAMS,
  });
  const links = new PeerLinks(options.tls);
  const service = new StorageService(node, logger, links, metrics);
  service.addToServer(server);
  const listener = await LinkListener.listen({
    listen: options.listen,
    server,
    serveLink: (link) => service.serveLink(link),
    tls: options.tls,
    logger,
  });
  const { address } = listener;
  await waitForStore(node, options.storeWaitMs ?? 10_000, logger);
  if (tombstoneTtlMs < SHORT_TOMBSTONE_TTL_MS)
    logger.warn(
      { tombstoneTtlMs },
      "tombstone TTL under 1 h: a fill, a write in flight or a retried remove that outlasts it can bring deleted data back",
    );
  const http = metrics && (await startMetricsServer(metrics.registry, options.http!));
  const sweeper = new TombstoneSweeper(engine, tombstoneTtlMs, logger);
  sweeper.start();
  const placement = new BackendPlacement(node, options.tls, logger);
  const forwarder = { peers: links, time: systemTime, notify: links.notify.bind(links) };
  const release = new WithheldRelease({
    node,
    placement: (bin) => placement.of(bin),
    appliedStamp: (writer, seq) => engine.claim(writer, seq),
    forwarder,
    logger,
    ended: metrics && ((outcome) => metrics.withheldForward(outcome)),
  });
  release.start();
  logger.info(
    {
      address,
      http: http?.address,
      incarnation: node.incarnation,
      store: options.store.engine,
      tls: options.tls !== undefined,
    },
    "backend listening",
  );
  return {
    address,
    httpAddress: http?.address,
    node,
    sweeper,
    async close() {
      http?.server.close();
      // No new connection from here on; the gRPC ones are the server's to drain, then links close.
      listener.close();
      await sweeper.stop();
      release.stop();
      placement.close();
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.forceShutdown(), SHUTDOWN_GRACE_MS);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      links.close();
      await engine.close();
      logger.info({ address }, "backend stopped");
    },
  };
}

async function waitForStore(node: BackendNode, waitMs: number, logger: Logger): Promise<void> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    try {
      await node.clock.load();
      return;
    } catch (error) {
      if (performance.now() >= deadline) {
        logger.warn({ err: error }, "store not reachable yet; serving UNAVAILABLE until it answers");
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, STORE_RETRY_MS));
    }
  }
}
