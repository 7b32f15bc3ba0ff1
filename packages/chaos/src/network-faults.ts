// Network faults on a cluster whose processes sit in namespaces of their own:
// applies what network-schedule.ts planned through a NetworkControl, records
// each fault and its reconnect, and knows what each impairs until it is
// healed. When to heal is the caller's choice (the chaos run schedules it).

import type { FaultRecorder } from "./history.js";
import type { NetworkControl, NetworkNode, Undo } from "./network-control.js";
import {
  holdsBackendFaults,
  type NetworkAction,
  networkImpairs,
  type PlannedNetworkFault,
} from "./network-schedule.js";

/**
 * After a keeper cut from its peers is back, how long its stale verdicts may
 * take to reach the others (a few peer beats), during which the cluster can
 * still look settled.
 */
const KEEPER_REJOIN_MS = 3000;

interface ActiveFault {
  /** The history's name for it, e.g. "keeper-0->backend-3". */
  target: string;
  action: NetworkAction;
  /** It cuts a keeper from the others (network-schedule.ts holdsBackendFaults). */
  holds: boolean;
  impairs: ReturnType<typeof networkImpairs>;
  /** Undoes what has been applied so far; emptied as each succeeds. */
  undo: Undo[];
}

export class NetworkFaults {
  /** Every network action injected in this run (the schedule covers each kind first). */
  readonly injected = new Set<NetworkAction>();
  /** Its key -> the fault in force, until its reconnect has succeeded. */
  readonly #active = new Map<string, ActiveFault>();
  #count = 0;
  /** When the last fault that cut a keeper from its peers was healed (performance.now()). */
  #keeperBackAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly control: NetworkControl,
    /** Every node: the clients, then each backend and keeper. */
    private readonly nodes: readonly NetworkNode[],
    private readonly record: FaultRecorder,
  ) {}

  /** Network faults injected so far. */
  get count(): number {
    return this.#count;
  }

  /** Applies the fault; resolves with the key that heals it. */
  async inject(fault: PlannedNetworkFault): Promise<string> {
    const key = `network-${++this.#count}`;
    const { target, detail } = describe(fault);
    const active: ActiveFault = {
      target,
      action: fault.action,
      holds: holdsBackendFaults(fault),
      impairs: networkImpairs(fault),
      undo: [],
    };
    // In force (and impairing) from before its first rule, so a failure halfway still heals what was applied.
    this.#active.set(key, active);
    this.injected.add(fault.action);
    const steps = this.#cuts(fault).map(
      ([from, to]) =>
        () =>
          this.control.cut(from, to),
    );
    if (fault.action === "slow-link") {
      const [a, b] = fault.between;
      steps.push(
        () => this.control.slow(a, b, fault.link),
        () => this.control.slow(b, a, fault.link),
      );
    }
    await Promise.all(
      steps.map(async (step) => {
        active.undo.push(await step());
      }),
    );
    this.record(fault.action, target, `${detail}, for ${fault.downMs} ms`);
    return key;
  }

  /** Undoes the fault `inject` returned `key` for; if that fails, it stays in force and may be healed again. */
  async heal(key: string): Promise<void> {
    const active = this.#active.get(key);
    if (!active) return;
    await Promise.all(
      [...active.undo].map(async (undo) => {
        await undo();
        active.undo.splice(active.undo.indexOf(undo), 1);
      }),
    );
    this.#active.delete(key);
    if (active.holds) this.#keeperBackAt = performance.now();
    this.record("reconnect", active.target);
  }

  /** Heals every fault still in force. */
  async healAll(): Promise<void> {
    for (const key of [...this.#active.keys()]) await this.heal(key);
  }

  /** A keeper is cut from its peers, or was until moments ago: no backend fault may be injected. */
  holdsBackendFaults(): boolean {
    const holding = [...this.#active.values()].some(({ holds }) => holds);
    return holding || performance.now() - this.#keeperBackAt < KEEPER_REJOIN_MS;
  }

  impairedBackends(): Set<number> {
    return new Set([...this.#active.values()].flatMap(({ impairs }) => impairs.backends));
  }

  /** Backends cut from their keepers: impaired until declared dead, like killed ones. */
  cutOffBackends(): Set<number> {
    return new Set([...this.#active.values()].flatMap(({ impairs }) => impairs.cutOff));
  }

  impairedKeepers(): Set<number> {
    return new Set([...this.#active.values()].flatMap(({ impairs }) => impairs.keepers));
  }

  /** What is in force, e.g. "keeper-0->backend-3 (cut-one-way)". */
  describe(): string[] {
    return [...this.#active.values()].map(({ target, action }) => `${target} (${action})`);
  }

  /** The directed cuts a fault is made of: [from, to every one of]. */
  #cuts(fault: PlannedNetworkFault): [NetworkNode, NetworkNode[]][] {
    const others = (node: NetworkNode) => this.nodes.filter((other) => other !== node);
    const keepers = this.nodes.filter((node) => node.startsWith("keeper-"));
    switch (fault.action) {
      case "partition":
        return [
          [fault.target, others(fault.target)],
          ...others(fault.target).map((node) => [node, [fault.target]] as [NetworkNode, NetworkNode[]]),
        ];
      case "cut-clients": {
        const backends = fault.targets.map((i): NetworkNode => `backend-${i}`);
        return [
          ["clients", backends],
          ...backends.map((node) => [node, ["clients"]] as [NetworkNode, NetworkNode[]]),
        ];
      }
      case "cut-one-way":
        return [[fault.from, [fault.to]]];
      case "slow-link":
        return [];
      case "partition-keepers": {
        const target: NetworkNode = `keeper-${fault.target}`;
        const rest = keepers.filter((node) => node !== target);
        return [[target, rest], ...rest.map((node) => [node, [target]] as [NetworkNode, NetworkNode[]])];
      }
    }
  }
}

/** The history's target and detail of a network fault. */
function describe(fault: PlannedNetworkFault): { target: string; detail: string } {
  switch (fault.action) {
    case "partition":
      return { target: fault.target, detail: "cut from every other process and the clients, both ways" };
    case "cut-clients":
      return {
        target: fault.targets.map((i) => `backend-${i}`).join(","),
        detail: "the workload's clients cut from them, both ways; keepers and backends still reach them",
      };
    case "cut-one-way":
      return {
        target: `${fault.from}->${fault.to}`,
        detail: `what ${fault.from} sends to ${fault.to} is dropped; the other way is delivered`,
      };
    case "slow-link":
      return {
        target: fault.between.join("<->"),
        detail: `each way capped at ${fault.link.kbitPerSecond} kbit/s with ${fault.link.lossPercent}% of packets lost`,
      };
    case "partition-keepers":
      return {
        target: `keeper-${fault.target}`,
        detail: "cut from the other keepers, both ways; every keeper still reaches every backend",
      };
  }
}
