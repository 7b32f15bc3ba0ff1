// Cuts and slow links between the nodes of a cluster network, with `tc` on
// the interface each node sends through (its namespace's eth0, or the
// clients' veth in this process's namespace). Everything acts on what a node
// sends, so a cut or a slow link is one-way; both ways is two calls.
//
// The kernel this runs on may lack netem, prio and the gact drop action (the
// CI machine's does), so only HTB, pfifo, u32 and cls_bpf are used. Each
// interface gets an HTB root whose default class 1:1 passes everything, and a
// class 1:2 whose queue holds nothing (pfifo limit 0): a filter that sends a
// packet there drops it, silently. A slow link is an HTB class of its own,
// capped at the link's bandwidth behind a short queue, so what is sent waits
// its turn (a 1 KB message at 64 kbit/s: 125 ms) and overflow is lost; its
// random loss is a classic-BPF filter (`ld rand`) that sends that share of
// the packets to 1:2. Filters are tried by preference: cuts first, then
// loss, then the slow links' classifiers.
import type { NetworkControl, NetworkNode, SlowLink, Undo } from "@binring/chaos";
import { iproute } from "./ip-command.js";

/** Where a node's traffic leaves it. */
export interface Endpoint {
  /** Its network namespace; undefined for this process's own. */
  netns: string | undefined;
  /** The interface it sends through. */
  device: string;
  /** Its IPv4 address. */
  address: string;
}

/** Classes on every interface: everything passes through 1:1 unless a filter says otherwise; 1:2 drops. */
const PASS_CLASS = "1:1";
const DROP_CLASS = "1:2";
/** Fast enough to shape nothing on one machine. */
const PASS_RATE = "10gbit";
/** Filter preferences: lower is tried first. Each filter gets one of its own, so it is deleted by it. */
const CUT_PREF = 100;
const LOSS_PREF = 20_000;
const SLOW_PREF = 40_000;
/** Slow links' classes are 1:10, 1:11, ... */
const FIRST_SLOW_CLASS = 0x10;
/** Packets a slow link queues before it drops: at 64 kbit/s, seconds of queue. */
const SLOW_QUEUE_PACKETS = 100;

export class TrafficControl implements NetworkControl {
  /** Next free preference and class number, per node. */
  readonly #next = new Map<NetworkNode, { cut: number; loss: number; slow: number; slowClass: number }>();

  constructor(private readonly endpoints: ReadonlyMap<NetworkNode, Endpoint>) {}

  /** Puts the HTB root and its pass and drop classes on every node's interface. */
  async prepare(): Promise<void> {
    await Promise.all(
      [...this.endpoints.keys()].map((node) =>
        this.#tc(node, [
          `qdisc replace dev ${this.#device(node)} root handle 1: htb default 1`,
          `class add dev ${this.#device(node)} parent 1: classid ${PASS_CLASS} htb rate ${PASS_RATE} quantum 60000`,
          `class add dev ${this.#device(node)} parent 1: classid ${DROP_CLASS} htb rate ${PASS_RATE} quantum 60000`,
          `qdisc add dev ${this.#device(node)} parent ${DROP_CLASS} handle 2: pfifo limit 0`,
        ]),
      ),
    );
    for (const node of this.endpoints.keys()) {
      this.#next.set(node, { cut: CUT_PREF, loss: LOSS_PREF, slow: SLOW_PREF, slowClass: FIRST_SLOW_CLASS });
    }
  }

  async cut(from: NetworkNode, to: readonly NetworkNode[]): Promise<Undo> {
    if (to.length === 0) return async () => {};
    const device = this.#device(from);
    const pref = this.#counters(from).cut++;
    await this.#tc(
      from,
      to.map(
        (node) =>
          `filter add dev ${device} parent 1: protocol ip pref ${pref} u32 match ip dst ${this.#address(node)}/32 flowid ${DROP_CLASS}`,
      ),
    );
    return () => this.#tc(from, [`filter del dev ${device} parent 1: protocol ip pref ${pref}`]);
  }

  async slow(from: NetworkNode, to: NetworkNode, link: SlowLink): Promise<Undo> {
    const device = this.#device(from);
    const counters = this.#counters(from);
    const [lossPref, slowPref] = [counters.loss++, counters.slow++];
    const classId = `1:${(counters.slowClass++).toString(16)}`;
    const rate = `${Math.max(1, Math.round(link.kbitPerSecond))}kbit`;
    await this.#tc(from, [
      `class add dev ${device} parent 1: classid ${classId} htb rate ${rate} ceil ${rate} burst 1600 cburst 1600 quantum 1514`,
      `qdisc add dev ${device} parent ${classId} pfifo limit ${SLOW_QUEUE_PACKETS}`,
      `filter add dev ${device} parent 1: protocol ip pref ${lossPref} bpf bytecode "${lossProgram(this.#address(to), link.lossPercent)}" classid ${DROP_CLASS}`,
      `filter add dev ${device} parent 1: protocol ip pref ${slowPref} u32 match ip dst ${this.#address(to)}/32 flowid ${classId}`,
    ]);
    return () =>
      this.#tc(from, [
        `filter del dev ${device} parent 1: protocol ip pref ${slowPref}`,
        `filter del dev ${device} parent 1: protocol ip pref ${lossPref}`,
        `class del dev ${device} classid ${classId}`,
      ]);
  }

  #tc(node: NetworkNode, batch: string[]): Promise<void> {
    const { netns } = this.#endpoint(node);
    return iproute("tc", netns ? ["-n", netns] : [], batch).then(() => undefined);
  }

  #counters(node: NetworkNode) {
    const counters = this.#next.get(node);
    if (!counters) throw new Error(`${node}: traffic control is not prepared`);
    return counters;
  }

  #device(node: NetworkNode): string {
    return this.#endpoint(node).device;
  }

  #address(node: NetworkNode): string {
    return this.#endpoint(node).address;
  }

  #endpoint(node: NetworkNode): Endpoint {
    const endpoint = this.endpoints.get(node);
    if (!endpoint) throw new Error(`${node} is not in this cluster network`);
    return endpoint;
  }
}

/**
 * A classic BPF program, as `tc ... bpf bytecode` takes it, that matches
 * IPv4 packets to `address` with probability `percent`/100: load the
 * destination (offset 30: after the 14-byte Ethernet header, 16 into the IP
 * header), compare, draw `ld rand` (ancillary load SKF_AD_RANDOM) and match
 * (return -1: the filter's class) when it falls below the threshold.
 */
function lossProgram(address: string, percent: number): string {
  const destination = address.split(".").reduce((value, octet) => value * 256 + Number(octet), 0);
  const threshold = Math.min(2 ** 32 - 1, Math.floor((percent / 100) * 2 ** 32));
  const LD_W_ABS = 0x20;
  const JEQ_K = 0x15;
  const JGT_K = 0x25;
  const RET_K = 0x06;
  const SKF_AD_RANDOM = 0xfffff000 + 56;
  const program: [number, number, number, number][] = [
    [LD_W_ABS, 0, 0, 30],
    [JEQ_K, 0, 3, destination], // another destination: to "no match"
    [LD_W_ABS, 0, 0, SKF_AD_RANDOM],
    [JGT_K, 1, 0, threshold], // above the threshold: to "no match"
    [RET_K, 0, 0, 0xffffffff],
    [RET_K, 0, 0, 0],
  ];
  return [program.length, ...program.map((instruction) => instruction.join(" "))].join(",");
}
