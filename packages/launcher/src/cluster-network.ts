// A private network for a local cluster, so that chaos can cut and slow the
// traffic between its processes: every backend (with its redis-server, which
// it reaches on the namespace's own loopback) and every keeper in a Linux
// network namespace of its own, each with one veth on a bridge and an address
// of its own on a /24. This process's namespace joins the bridge through a
// veth too, as the node "clients": the chaos run's workload and status reads.
// Traffic between any two nodes leaves through an interface traffic-control.ts
// manages.
//
// Needs root (ip netns add). The names derive from the cluster's directory:
// a run that finds the names of a crashed earlier run on the same directory
// removes those first (and kills what still runs in their namespaces);
// remove(), or this process's exit, removes them again — unless a later run
// on the same directory has since taken the names over (its bridge is not
// this one's), which is then left to it. One run per directory at a time.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import type { NetworkControl, NetworkNode } from "@binring/chaos";
import { type Logger, pino } from "pino";
import { iproute, iprouteSync } from "./ip-command.js";
import { type Endpoint, TrafficControl } from "./traffic-control.js";

export interface ClusterNetworkOptions {
  /** The cluster's directory: the names of the namespaces and interfaces derive from it. */
  dir: string;
  backends: number;
  keepers: number;
  /**
   * Namespaces made up front for backends started later (membership faults
   * add backends while the run cuts links): backend-N and on, N = backends.
   * @default 0
   */
  spareBackends?: number;
  /** @default a silent logger */
  logger?: Logger;
}

/** The interface each namespace sends through. */
const NAMESPACE_DEVICE = "eth0";
/** Networks not removed yet, removed on exit if their owner did not get to it. */
const live = new Set<ClusterNetwork>();
process.on("exit", () => {
  for (const network of live) network.removeNow();
});

export class ClusterNetwork {
  readonly #logger: Logger;
  readonly #control: TrafficControl;
  /** The bridge's interface index once created: another index under its name means another run took the names over. */
  #bridgeIndex: number | undefined;

  private constructor(
    /** Every name starts with it: "bnr" and 6 hex digits of the directory's hash (interface names have 15 characters at most). */
    readonly prefix: string,
    /** The /24's first three octets, e.g. "10.231.7". */
    readonly subnet: string,
    private readonly endpoints: ReadonlyMap<NetworkNode, Endpoint>,
    logger: Logger,
  ) {
    this.#logger = logger;
    this.#control = new TrafficControl(endpoints);
  }

  /** Creates the bridge, the namespaces and their veths; on failure removes what it made and throws. */
  static async create(options: ClusterNetworkOptions): Promise<ClusterNetwork> {
    const logger = options.logger ?? pino({ level: "silent" });
    if (process.getuid?.() !== 0)
      throw new Error("network namespaces need root (ip netns add); run as root, or without network faults");
    const hash = createHash("sha256").update(resolve(options.dir)).digest();
    const prefix = `bnr${hash.subarray(0, 3).toString("hex")}`;
    await removeLeftovers(prefix, logger);
    const subnet = await freeSubnet(hash);
    const nodes: NetworkNode[] = [
      "clients",
      ...Array.from(
        { length: options.backends + (options.spareBackends ?? 0) },
        (_, i): NetworkNode => `backend-${i}`,
      ),
      ...Array.from({ length: options.keepers }, (_, i): NetworkNode => `keeper-${i}`),
    ];
    if (nodes.length > 253)
      throw new Error(`a cluster network holds at most 252 processes, not ${nodes.length - 1}`);
    const endpoints = new Map<NetworkNode, Endpoint>(
      nodes.map((node, i) => [
        node,
        node === "clients"
          ? { netns: undefined, device: `${prefix}c`, address: `${subnet}.${i + 1}` }
          : { netns: `${prefix}-${node}`, device: NAMESPACE_DEVICE, address: `${subnet}.${i + 1}` },
      ]),
    );
    const network = new ClusterNetwork(prefix, subnet, endpoints, logger);
    live.add(network);
    try {
      await network.#build(nodes);
    } catch (error) {
      live.delete(network);
      await removeLeftovers(prefix, logger, false);
      throw error;
    }
    logger.info(
      { prefix, subnet: `${subnet}.0/24`, namespaces: nodes.length - 1 },
      "cluster network created",
    );
    return network;
  }

  /** Cuts and slow links between the nodes. */
  get control(): NetworkControl {
    return this.#control;
  }

  /** How many backends have a namespace: the cluster's first ones and the spares. */
  get backendSlots(): number {
    return [...this.endpoints.keys()].filter((node) => node.startsWith("backend-")).length;
  }

  /** A node's IPv4 address. */
  address(node: NetworkNode): string {
    return this.#endpoint(node).address;
  }

  /** Every node's address: a certificate for the cluster must name them. */
  get addresses(): string[] {
    return [...this.endpoints.values()].map((endpoint) => endpoint.address);
  }

  /** The network namespace a process of `node` runs in. */
  namespace(node: Exclude<NetworkNode, "clients">): string {
    return this.#endpoint(node).netns!;
  }

  /** Removes the namespaces (killing what still runs in them), the veths and the bridge. */
  async remove(): Promise<void> {
    if (!live.delete(this) || !this.#stillOurs()) return;
    await removeLeftovers(this.prefix, this.#logger, false);
    this.#logger.info({ prefix: this.prefix }, "cluster network removed");
  }

  /** remove(), blocking: for an exit handler. */
  removeNow(): void {
    live.delete(this);
    if (!this.#stillOurs()) return;
    iprouteSync(
      "ip",
      ["-force"],
      [...this.endpoints.values()].flatMap(({ netns }) => (netns ? [`netns del ${netns}`] : [])),
    );
    iprouteSync("ip", ["-force"], [`link del ${this.prefix}c`, `link del ${this.prefix}`]);
  }

  /** Whether the bridge under this network's name is still the one it created. */
  #stillOurs(): boolean {
    if (bridgeIndex(this.prefix) === this.#bridgeIndex) return true;
    this.#logger.warn(
      { prefix: this.prefix },
      "cluster network taken over by a later run on the same directory; left to it",
    );
    return false;
  }

  async #build(nodes: NetworkNode[]): Promise<void> {
    const { prefix } = this;
    const bridge = prefix;
    const clients = this.#endpoint("clients");
    await iproute(
      "ip",
      [],
      [
        `link add ${bridge} type bridge`,
        `link set ${bridge} up`,
        `link add ${clients.device} type veth peer name ${clients.device}p`,
        `link set ${clients.device}p master ${bridge}`,
        `link set ${clients.device}p up`,
        `addr add ${clients.address}/24 dev ${clients.device}`,
        `link set ${clients.device} up`,
        ...nodes.flatMap((node, i) => {
          const { netns } = this.#endpoint(node);
          if (!netns) return [];
          const port = `${prefix}p${i}`;
          return [
            `netns add ${netns}`,
            `link add ${port} type veth peer name ${NAMESPACE_DEVICE} netns ${netns}`,
            `link set ${port} master ${bridge}`,
            `link set ${port} up`,
          ];
        }),
      ],
    );
    this.#bridgeIndex = bridgeIndex(bridge);
    await Promise.all(
      nodes.map((node) => {
        const { netns, address, device } = this.#endpoint(node);
        if (!netns) return undefined;
        return iproute(
          "ip",
          ["-n", netns],
          [`addr add ${address}/24 dev ${device}`, `link set ${device} up`, "link set lo up"],
        );
      }),
    );
    await this.#control.prepare();
  }

  #endpoint(node: NetworkNode): Endpoint {
    const endpoint = this.endpoints.get(node);
    if (!endpoint) throw new Error(`${node} is not in this cluster network`);
    return endpoint;
  }
}

/** The interface index of the bridge named `name`, or undefined when there is none. Blocking: exit handlers use it. */
function bridgeIndex(name: string): number | undefined {
  try {
    const output = execFileSync("ip", ["-j", "link", "show", "dev", name], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    return (JSON.parse(output.toString()) as { ifindex: number }[])[0]?.ifindex;
  } catch {
    return undefined;
  }
}

/**
 * Removes every namespace and interface named with `prefix`: first the
 * processes still in those namespaces (a crashed run's), then the namespaces,
 * then the interfaces (a veth goes with its peer).
 */
async function removeLeftovers(prefix: string, logger: Logger, leftovers = true): Promise<void> {
  const namespaces = (await iproute("ip", ["netns", "list"]))
    .split("\n")
    .map((line) => line.split(" ")[0]!)
    .filter((name) => name.startsWith(`${prefix}-`));
  const links = async () =>
    (await iproute("ip", ["-o", "link", "show"]))
      .split("\n")
      .map((line) => line.split(": ")[1]?.split("@")[0] ?? "")
      .filter((name) => name.startsWith(prefix));
  const found = await links();
  if (namespaces.length === 0 && found.length === 0) return;
  if (leftovers)
    logger.warn({ prefix, namespaces, links: found }, "removing a crashed run's cluster network");
  for (const netns of namespaces) {
    for (const pid of (await iproute("ip", ["netns", "pids", netns])).split("\n").filter(Boolean)) {
      try {
        process.kill(Number(pid), "SIGKILL");
      } catch {
        // Gone meanwhile.
      }
    }
  }
  // -force: on through errors (a veth already gone with its peer), checked below.
  await iproute(
    "ip",
    ["-force"],
    [...namespaces.map((netns) => `netns del ${netns}`), ...found.map((link) => `link del ${link}`)],
  ).catch(() => undefined);
  const left = await links();
  if (left.length > 0)
    throw new Error(`could not remove the interfaces ${left.join(", ")} of an earlier run`);
}

/**
 * A /24 in 10.200.0.0–10.249.255.0 that no route on this machine overlaps,
 * starting from one the directory's hash picks, so runs on different
 * directories side by side take different ones.
 */
async function freeSubnet(hash: Buffer): Promise<string> {
  const routes = JSON.parse(await iproute("ip", ["-j", "-4", "route", "show", "table", "all"])) as {
    dst: string;
  }[];
  const taken = routes.flatMap(({ dst }) => (/^\d+\.\d+\.\d+\.\d+(\/\d+)?$/.test(dst) ? [dst] : []));
  const candidates = 50 * 256;
  const start = hash.readUInt16BE(2) % candidates;
  for (let i = 0; i < candidates; i++) {
    const candidate = (start + i) % candidates;
    const subnet = `10.${200 + Math.floor(candidate / 256)}.${candidate % 256}`;
    if (!taken.some((route) => overlaps(route, `${subnet}.0/24`))) return subnet;
  }
  throw new Error("no free /24 in 10.200.0.0–10.249.255.0 for a cluster network");
}

function overlaps(a: string, b: string): boolean {
  const [addressA, bitsA] = parsePrefix(a);
  const [addressB, bitsB] = parsePrefix(b);
  const bits = Math.min(bitsA, bitsB);
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (addressA & mask) >>> 0 === (addressB & mask) >>> 0;
}

function parsePrefix(prefix: string): [number, number] {
  const [address, bits] = prefix.split("/");
  const value = address!.split(".").reduce((sum, octet) => sum * 256 + Number(octet), 0);
  return [value >>> 0, bits === undefined ? 32 : Number(bits)];
}
