// Starts a keeper: its loops, its gRPC service and its HTTP status endpoint.
import {
  addProcessMetrics,
  formatHostPort,
  InvalidArgumentError,
  parseHostPort,
  securedServerOptions,
  serverCredentials,
  type TlsFiles,
} from "@binring/core";
import * as grpc from "@grpc/grpc-js";
import { type Logger, pino } from "pino";
import { Keeper } from "./keeper.js";
import type { KeeperTiming } from "./keeper-options.js";
import { addKeeperService } from "./keeper-service.js";
import { startStatusServer } from "./status-server.js";

export interface StartKeeperOptions {
  backends: string[];
  /** Zone of each backend, from the cluster file. @default {} */
  zones?: Record<string, string>;
  /** Every keeper of the cluster, this one included. @default [listen] */
  keepers?: string[];
  /** This keeper's position in `keepers`. @default 0 */
  index?: number;
  /** This keeper's address when `keepers` does not list it: it acts once added (Keeper's `address`). */
  address?: string;
  /** host:port for the gRPC service (port 0 picks one). */
  listen: string;
  /** host:port for HTTP /health and /status (port 0 picks one). */
  httpListen: string;
  name?: string;
  timing?: Partial<KeeperTiming>;
  logger?: Logger;
  /** Mutual TLS with the keeper certificate, on its server and every call it makes. @default plaintext */
  tls?: TlsFiles;
  /**
   * Also serve this process's CPU, memory, GC and event-loop delay on /metrics
   * (core/process-metrics.ts): for the one keeper a process runs, as
   * `binring keeper` does. @default false
   */
  processMetrics?: boolean;
}

export interface RunningKeeper {
  keeper: Keeper;
  address: string;
  httpAddress: string;
  close(): Promise<void>;
}

export async function startKeeper(options: StartKeeperOptions): Promise<RunningKeeper> {
  const at = parseHostPort(options.listen);
  if (!at)
    throw new InvalidArgumentError(`listen address must be host:port, got ${JSON.stringify(options.listen)}`);
  const logger = options.logger ?? pino({ level: "silent" });
  const keeper = new Keeper({
    backends: options.backends,
    zones: options.zones,
    keepers: options.keepers ?? [options.listen],
    index: options.index,
    address: options.address,
    name: options.name,
    timing: options.timing,
    logger,
    tls: options.tls,
  });
  if (options.processMetrics) addProcessMetrics(keeper.metrics.registry);
  const server = new grpc.Server(securedServerOptions(options.tls));
  addKeeperService(server, keeper);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(options.listen, serverCredentials(options.tls), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  const address = formatHostPort(at.host, port);
  const status = await startStatusServer(keeper, options.httpListen);
  keeper.start();
  logger.info(
    {
      address,
      http: status.address,
      backends: options.backends.length,
      keepers: options.keepers?.length ?? 1,
      tls: options.tls !== undefined,
    },
    "keeper listening",
  );
  return {
    keeper,
    address,
    httpAddress: status.address,
    async close() {
      await keeper.stop();
      status.server.close();
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    },
  };
}
