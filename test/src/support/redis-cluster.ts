// A real Redis Cluster for benchmarks and tests: cluster-mode redis-servers on
// free ports, joined by `redis-cli --cluster create`, each node killable and
// restartable on its port and directory (its nodes.conf brings it back into
// the cluster).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "@binring/launcher";
import { ChildProcess } from "./child.js";
import { waitFor } from "./wait-for.js";

const run = promisify(execFile);

export interface RedisClusterOptions {
  /** @default 3 */
  masters?: number;
  /** Replicas per master. @default 1 */
  replicasPerMaster?: number;
  /** cluster-node-timeout: how long a node may be unreachable before it is failed over. @default 5000 */
  nodeTimeoutMs?: number;
}

export interface RedisClusterNode {
  port: number;
  /** Cluster bus port, picked like the client port: the default (port + 10000) may fall in the ephemeral range. */
  busPort: number;
  dir: string;
  process: ChildProcess | undefined;
}

/** One line of CLUSTER NODES. */
export interface ClusterNodeInfo {
  id: string;
  port: number;
  role: "master" | "slave";
  failed: boolean;
  masterId: string;
  slots: number;
}

export class RedisCluster {
  private constructor(
    readonly nodes: RedisClusterNode[],
    readonly nodeTimeoutMs: number,
  ) {}

  static async start(options: RedisClusterOptions = {}): Promise<RedisCluster> {
    const masters = options.masters ?? 3;
    const replicas = options.replicasPerMaster ?? 1;
    const nodeTimeoutMs = options.nodeTimeoutMs ?? 5000;
    const nodes = await Promise.all(
      Array.from({ length: masters * (1 + replicas) }, async () => ({
        port: await freePort(),
        busPort: await freePort(),
        dir: mkdtempSync(join(tmpdir(), "binring-redis-cluster-")),
        process: undefined,
      })),
    );
    const cluster = new RedisCluster(nodes, nodeTimeoutMs);
    try {
      await Promise.all(nodes.map((node) => cluster.#launch(node)));
      await run(
        "redis-cli",
        [
          "--cluster",
          "create",
          ...nodes.map((node) => `127.0.0.1:${node.port}`),
          "--cluster-replicas",
          String(replicas),
          "--cluster-yes",
        ],
        { timeout: 30_000 },
      );
      await cluster.waitHealthy();
      // A replica that never finished its first sync cannot take over.
      await waitFor("every replica's first sync", () => cluster.isRedundant(), {
        timeoutMs: 30_000,
        intervalMs: 50,
      });
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
    return cluster;
  }

  async #launch(node: RedisClusterNode): Promise<void> {
    const args = [
      "--port",
      String(node.port),
      "--cluster-port",
      String(node.busPort),
      "--bind",
      "127.0.0.1",
      "--dir",
      node.dir,
      "--cluster-enabled",
      "yes",
      "--cluster-config-file",
      "nodes.conf",
      "--cluster-node-timeout",
      String(this.nodeTimeoutMs),
      "--save",
      "",
      "--appendonly",
      "no",
      // Start a replica's full sync at once instead of waiting 5 s for more replicas.
      "--repl-diskless-sync-delay",
      "0",
      "--logfile",
      "",
    ];
    const { child } = await ChildProcess.spawn(`redis-cluster:${node.port}`, "redis-server", args, {
      readyLine: /Ready to accept connections/,
    });
    node.process = child;
  }

  /** host:port of every node, for a cluster client's seed list. */
  get seeds(): { host: string; port: number }[] {
    return this.nodes.map((node) => ({ host: "127.0.0.1", port: node.port }));
  }

  node(port: number): RedisClusterNode {
    const node = this.nodes.find((n) => n.port === port);
    if (!node) throw new Error(`no node on port ${port} in this cluster`);
    return node;
  }

  /** Runs redis-cli against one node. */
  async cli(port: number, ...args: string[]): Promise<string> {
    const { stdout } = await run("redis-cli", ["-p", String(port), ...args], { timeout: 5000 });
    return stdout;
  }

  /** CLUSTER NODES as seen by the node on `port`. */
  async clusterNodes(port: number): Promise<ClusterNodeInfo[]> {
    const text = await this.cli(port, "cluster", "nodes");
    return text
      .trim()
      .split("\n")
      .map((line) => {
        const [id, address, flags, masterId, , , , , ...slots] = line.split(" ");
        const port = Number(address!.split("@")[0]!.split(":")[1]);
        const slotCount = slots.reduce((sum, range) => {
          const [from, to] = range.split("-").map(Number);
          return range.startsWith("[") ? sum : sum + (to === undefined ? 1 : to - from! + 1);
        }, 0);
        return {
          id: id!,
          port,
          role: flags!.includes("master") ? "master" : "slave",
          failed: flags!.includes("fail") && !flags!.includes("fail?"),
          masterId: masterId!,
          slots: slotCount,
        } as ClusterNodeInfo;
      });
  }

  /** Ports of the masters that serve slots, as seen by a running node. */
  async masters(): Promise<number[]> {
    const nodes = await this.clusterNodes(this.#anyRunning().port);
    return nodes.filter((n) => n.role === "master" && !n.failed && n.slots > 0).map((n) => n.port);
  }

  #anyRunning(): RedisClusterNode {
    const node = this.nodes.find((n) => n.process?.running);
    if (!node) throw new Error("no node of the cluster is running");
    return node;
  }

  /** Every running node reports cluster_state:ok and all 16384 slots assigned to masters that are up. */
  async isHealthy(): Promise<boolean> {
    for (const node of this.nodes.filter((n) => n.process?.running)) {
      const info = await this.cli(node.port, "cluster", "info");
      if (!info.includes("cluster_state:ok") || !info.includes("cluster_slots_ok:16384")) return false;
    }
    return true;
  }

  waitHealthy(timeoutMs = 30_000): Promise<true> {
    return waitFor("the Redis Cluster to report cluster_state:ok on every node", () => this.isHealthy(), {
      timeoutMs,
      intervalMs: 50,
    });
  }

  /**
   * Full redundancy: every master that serves slots has at least one replica
   * whose link to it is up and whose initial sync finished.
   */
  async isRedundant(): Promise<boolean> {
    const nodes = await this.clusterNodes(this.#anyRunning().port);
    const masters = nodes.filter((n) => n.role === "master" && !n.failed && n.slots > 0);
    for (const master of masters) {
      const replicas = nodes.filter((n) => n.role === "slave" && !n.failed && n.masterId === master.id);
      let synced = false;
      for (const replica of replicas) {
        if (!this.node(replica.port).process?.running) continue;
        const info = await this.cli(replica.port, "info", "replication");
        if (info.includes("master_link_status:up") && info.includes("master_sync_in_progress:0"))
          synced = true;
      }
      if (!synced) return false;
    }
    return masters.length > 0;
  }

  /** SIGKILLs the node on `port`. */
  async kill(port: number): Promise<void> {
    const node = this.node(port);
    await node.process?.kill("SIGKILL");
    node.process = undefined;
  }

  /** Starts the node on `port` again with its nodes.conf, so it rejoins the cluster. */
  async restart(port: number): Promise<void> {
    const node = this.node(port);
    if (node.process?.running) await this.kill(port);
    await this.#launch(node);
  }

  async destroy(): Promise<void> {
    await Promise.all(
      this.nodes.map(async (node) => {
        await node.process?.kill("SIGKILL");
        rmSync(node.dir, { recursive: true, force: true });
      }),
    );
  }
}
