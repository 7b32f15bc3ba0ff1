// The SDK's entry point: a cluster of backends on a hash ring, offering one
// Storage per bin. Writes go to every live replica of a bin; reads come from
// the first ready one (see docs/ARCHITECTURE.md, "Write path" and "Read path").
// This class wires a session to the real backends and keepers; the paths
// themselves are in read-path.ts and write-path.ts.
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import {
  type ClusterConfig,
  checkBinName,
  DEFAULT_LIMITS,
  HashRing,
  InvalidArgumentError,
  MAX_TIMER_MS,
  parseClusterConfig,
  ringMembers,
  ringPoint,
  type TlsFiles,
} from "@binring/core";
import { type Logger, pino } from "pino";
import type { Registry } from "prom-client";
import type { BackendChannel } from "./backend-channel.js";
import { Bin } from "./bin.js";
import { ChannelTransport } from "./channel-transport.js";
import { ClientMetrics } from "./client-metrics.js";
import { ClientSession, type Placement } from "./client-session.js";
import { ClusterView } from "./cluster-view.js";
import { Reachability } from "./reachability.js";
import { parseSabotage, type Sabotage } from "./sabotage.js";

export interface BinClientOptions {
  /** Backend addresses (host:port). */
  backends: string[];
  /** Keeper addresses; optional. @default [] */
  keepers?: string[];
  /** Zone of each backend, by address; every client and keeper of a cluster must be given the same. @default {} */
  zones?: Record<string, string>;
  /** Deadline of one operation, retries included; at most 60000 (MAX_CALL_TIMEOUT_MS). @default 10000 */
  callTimeoutMs?: number;
  /** Deadline of one call to one backend; a slow backend is retried until callTimeoutMs. @default 2000 */
  backendCallTimeoutMs?: number;
  /**
   * Carry data calls on links (link-pipe.ts: the Pipe's messages framed on a
   * plain TCP or TLS connection) instead of gRPC streams: the same calls at
   * less CPU per message. @default true
   */
  links?: boolean;
  /** How often backends that failed are probed. @default 1000 */
  probeIntervalMs?: number;
  /** How often the cluster view is fetched from keepers. @default 2000 */
  viewRefreshMs?: number;
  /** @default a silent logger */
  logger?: Logger;
  /**
   * Mutual TLS: the CA to trust and the client certificate and key to present
   * (PEM file paths), for every call to backends and keepers. @default plaintext
   */
  tls?: TlsFiles;
  /**
   * A prom-client Registry of the application's to put this client's
   * metrics on (binring_client_*: calls by operation and outcome, latency,
   * failed replica calls by kind, restamps, view epoch, unreachable
   * backends). One client per registry. @default no metrics
   */
  metrics?: Registry;
  /**
   * TEST ONLY — breaks the guarantees on purpose (see sabotage.ts), for the
   * chaos harness to prove its checkers see lost writes. Never set it otherwise.
   * @default undefined
   */
  unsafeSabotage?: Sabotage;
}

export class BinClient {
  /** Which backends this client found unreachable (and probes until they answer). */
  readonly reachability: Pick<Reachability, "isDown">;
  readonly #transport: ChannelTransport;
  readonly #reachability: Reachability;
  readonly #view: ClusterView;
  readonly #session: ClientSession;
  #closed = false;

  constructor(options: BinClientOptions) {
    const config = parseClusterConfig(
      {
        backends: options.backends,
        keepers: options.keepers ?? [],
        zones: options.zones ?? {},
        callTimeoutMs: options.callTimeoutMs,
      },
      "BinClient options",
    );
    const sabotage = parseSabotage(options.unsafeSabotage);
    const logger = options.logger ?? pino({ level: "silent" });
    const backendCallTimeoutMs = timingOption("backendCallTimeoutMs", options.backendCallTimeoutMs, 2000);
    const probeIntervalMs = timingOption("probeIntervalMs", options.probeIntervalMs, 1000);
    const refreshIntervalMs = timingOption("viewRefreshMs", options.viewRefreshMs, 2000);
    this.#transport = new ChannelTransport(backendCallTimeoutMs, options.tls, options.links ?? true);
    this.#reachability = new Reachability({
      probeIntervalMs,
      probe: (address) => this.#transport.probe(address),
      logger,
    });
    this.reachability = this.#reachability;
    this.#view = new ClusterView({
      keepers: config.keepers,
      tls: options.tls,
      refreshIntervalMs,
      minRefreshGapMs: 100,
      logger,
      // The keepers saw these answer after this client may have marked them down: a
      // write must not skip a backend the cluster counts as a replica (it may be ready).
      onNewerView: (alive) => {
        for (const address of alive) this.#reachability.markUp(address);
      },
      // The cluster's membership rules over the cluster file's, which only seeds a fresh cluster.
      backends: () => this.#session.ring.members.map((member) => member.id),
      onMembers: (members) => {
        if (members.length === 0) return;
        this.#session.ring = new HashRing(
          members.map(({ address, zone }) => (zone === "" ? { id: address } : { id: address, zone })),
        );
      },
    });
    this.#session = new ClientSession({
      ring: new HashRing(ringMembers(config.backends, config.zones)),
      transport: this.#transport,
      reachability: this.#reachability,
      view: this.#view,
      callTimeoutMs: config.callTimeoutMs ?? 10_000,
      attemptTimeoutMs: backendCallTimeoutMs,
      sabotage,
      observer: options.metrics && this.#metricsOn(options.metrics),
    });
  }

  #metricsOn(registry: Registry): ClientMetrics {
    if (registry.getSingleMetric("binring_client_operations_total")) {
      throw new InvalidArgumentError(
        "BinClient metrics: this registry already holds another client's binring_client_* metrics; give each client its own Registry (Registry.merge combines them)",
      );
    }
    return new ClientMetrics(registry, {
      epoch: () => this.#view.epoch,
      unreachable: () => this.#reachability.downCount,
    });
  }

  /** A client for the cluster described by a cluster file (binring.json). */
  static async fromConfig(path: string, options: Partial<BinClientOptions> = {}): Promise<BinClient> {
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(path, "utf8"));
    } catch (error) {
      throw new InvalidArgumentError(`cannot read cluster file ${path}: ${(error as Error).message}`);
    }
    const config: ClusterConfig = parseClusterConfig(raw, path, dirname(path));
    return new BinClient({
      ...options,
      ...config,
      callTimeoutMs: options.callTimeoutMs ?? config.callTimeoutMs,
    });
  }

  /**
   * The bin called name (any string, "" included). Bins never see each other's keys.
   * A bin holds no state of its own, so none is kept here: a client that
   * touches millions of bins does not grow with them.
   */
  bin(name: string): Bin {
    if (this.#closed) throw new InvalidArgumentError("BinClient is closed");
    checkBinName("bin name", name, DEFAULT_LIMITS.maxKeyBytes);
    return new Bin(this.#session, name, ringPoint(name));
  }

  /** The ring of the current membership: the cluster file's, until the keepers list theirs. */
  get ring(): HashRing {
    return this.#session.ring;
  }

  /**
   * The bin's replicas among the backends that are neither dead in the view
   * nor unreachable, primary first. With keepers, none until a keeper has
   * answered once: the cluster file may be out of date.
   */
  placement(point: number): Placement {
    return this.#session.placement(point);
  }

  /** The connection to one backend of the cluster, for calls outside the Storage contract (bulk loads). */
  channel(address: string): BackendChannel {
    return this.#transport.channel(address);
  }

  /** Closes every connection; operations afterwards fail. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#reachability.close();
    this.#view.close();
    this.#transport.close();
  }
}

/** A timing option: a whole number of ms that a timer can wait (a longer one would fire at once). */
function timingOption(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > MAX_TIMER_MS) {
    throw new InvalidArgumentError(
      `BinClient options: "${name}" must be a whole number of ms from 1 to ${MAX_TIMER_MS}, got ${String(value)}`,
    );
  }
  return value;
}
