// The SDK's entry point: a cluster of backends on a hash ring, offering one
// Storage per bin. Writes go to every live replica of a bin; reads come from
// the first ready one (see docs/ARCHITECTURE.md, "Write path" and "Read path").
import { readFile } from "node:fs/promises";
import {
  type ClusterConfig,
  checkBinName,
  DEFAULT_LIMITS,
  HashRing,
  InvalidArgumentError,
  newWriterId,
  parseClusterConfig,
  ringMembers,
  ringPoint,
} from "@binring/core";
import { type Logger, pino } from "pino";
import { BackendChannel } from "./backend-channel.js";
import { Bin } from "./bin.js";
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
  /** Deadline of one operation, retries included. @default 10000 */
  callTimeoutMs?: number;
  /** Deadline of one call to one backend; a slow backend is retried until callTimeoutMs. @default 2000 */
  backendCallTimeoutMs?: number;
  /** How often backends that failed are probed. @default 1000 */
  probeIntervalMs?: number;
  /** How often the cluster view is fetched from keepers. @default 2000 */
  viewRefreshMs?: number;
  /** @default a silent logger */
  logger?: Logger;
  /**
   * TEST ONLY — breaks the guarantees on purpose (see sabotage.ts), for the
   * chaos harness to prove its checkers see lost writes. Never set it otherwise.
   * @default undefined
   */
  unsafeSabotage?: Sabotage;
}

/** Placement of one bin: primary first. */
export interface Placement {
  point: number;
  replicas: string[];
}

/** Copies per bin: a primary and two backups. */
export const REPLICAS = 3;

export class BinClient {
  readonly ring: HashRing;
  readonly writer = newWriterId();
  readonly callTimeoutMs: number;
  readonly logger: Logger;
  readonly reachability: Reachability;
  readonly view: ClusterView;
  /** TEST ONLY: set from `unsafeSabotage`. */
  readonly sabotage: Sabotage | undefined;
  readonly #channels = new Map<string, BackendChannel>();
  #seq = 0;
  /** Largest clock this client has seen; stamps never go below it. */
  #clockSeen = 0n;
  #closed = false;

  constructor(options: BinClientOptions) {
    const config = parseClusterConfig(
      { backends: options.backends, keepers: options.keepers ?? [], zones: options.zones ?? {} },
      "BinClient options",
    );
    this.callTimeoutMs = options.callTimeoutMs ?? 10_000;
    this.sabotage = parseSabotage(options.unsafeSabotage);
    this.logger = options.logger ?? pino({ level: "silent" });
    this.ring = new HashRing(ringMembers(config.backends, config.zones));
    for (const address of config.backends) {
      this.#channels.set(
        address,
        new BackendChannel(address, { callTimeoutMs: options.backendCallTimeoutMs ?? 2000 }),
      );
    }
    this.reachability = new Reachability({
      probeIntervalMs: options.probeIntervalMs ?? 1000,
      probe: async (address) => {
        await this.channel(address).heartbeat({}, 1000);
      },
      logger: this.logger,
    });
    this.view = new ClusterView({
      keepers: config.keepers,
      refreshIntervalMs: options.viewRefreshMs ?? 2000,
      minRefreshGapMs: 100,
      logger: this.logger,
      // The keepers saw these answer after this client may have marked them down: a
      // write must not skip a backend the cluster counts as a replica (it may be ready).
      onNewerView: (alive) => {
        for (const address of alive) this.reachability.markUp(address);
      },
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
    const config: ClusterConfig = parseClusterConfig(raw, path);
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
    return new Bin(this, name, ringPoint(name));
  }

  /** The bin's replicas among the backends that are neither dead in the view nor unreachable, primary first. */
  placement(point: number): Placement {
    const isLive = (id: string) => !this.view.isDead(id) && !this.reachability.isDown(id);
    return { point, replicas: this.ring.replicasAt(point, isLive, REPLICAS) };
  }

  channel(address: string): BackendChannel {
    const channel = this.#channels.get(address);
    if (!channel) throw new InvalidArgumentError(`${address} is not a backend of this cluster`);
    return channel;
  }

  /** The epoch of the cluster view this client acts on (0: no view). */
  get epoch(): bigint {
    return this.view.epoch;
  }

  nextSeq(): number {
    this.#seq = (this.#seq + 1) >>> 0;
    return this.#seq;
  }

  get clockSeen(): bigint {
    return this.#clockSeen;
  }

  observeClock(clock: bigint): void {
    if (clock > this.#clockSeen) this.#clockSeen = clock;
  }

  /** Closes every connection; operations afterwards fail. */
  async close(): Promise<void> {
    this.#closed = true;
    this.reachability.close();
    this.view.close();
    for (const channel of this.#channels.values()) channel.close();
  }
}
