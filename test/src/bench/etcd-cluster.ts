// A 3-member etcd cluster on loopback for the peers benchmark: Debian's
// `etcd-server` binary, each member on free client and peer ports with its own
// data directory, optionally with --unsafe-no-fsync. The benchmark installs
// nothing: without `etcd` on PATH it says so and leaves etcd out.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, ManagedProcess } from "@binring/launcher";
import { waitFor } from "../support/wait-for.js";

/** The one line a run prints when etcd is missing. */
export const ETCD_MISSING = "etcd: skipped, etcd not installed (apt-get install etcd-server)";

/** Members of every etcd cluster here: three copies, as binring keeps. */
const MEMBERS = 3;
/** A member serves clients only once the cluster has a leader. */
const START_TIMEOUT_MS = 30_000;

export function hasEtcd(): boolean {
  try {
    execFileSync("etcd", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** "3.4.23", or "not installed". */
export function etcdVersion(): string {
  try {
    return /etcd Version: (\S+)/.exec(execFileSync("etcd", ["--version"]).toString())?.[1] ?? "unknown";
  } catch {
    return "not installed";
  }
}

interface Member {
  name: string;
  clientPort: number;
  peerPort: number;
}

export class EtcdCluster {
  private constructor(
    private readonly dir: string,
    private readonly processes: ManagedProcess[],
    /** Client URLs of every member. */
    readonly endpoints: string[],
  ) {}

  /** Starts the members and resolves once each reports itself healthy. */
  static async start(options: { noFsync: boolean }): Promise<EtcdCluster> {
    const dir = mkdtempSync(join(tmpdir(), "binring-etcd-"));
    const members: Member[] = [];
    for (let i = 0; i < MEMBERS; i++)
      members.push({ name: `etcd-${i}`, clientPort: await freePort(), peerPort: await freePort() });
    const initialCluster = members.map((m) => `${m.name}=http://127.0.0.1:${m.peerPort}`).join(",");
    // The same token on every member (they derive the cluster's id from it), unique to this cluster.
    const token = `binring-bench-${members[0]!.clientPort}`;
    const processes: ManagedProcess[] = [];
    const cluster = new EtcdCluster(
      dir,
      processes,
      members.map((m) => `http://127.0.0.1:${m.clientPort}`),
    );
    try {
      await Promise.all(
        members.map(async (member) => {
          const clientUrl = `http://127.0.0.1:${member.clientPort}`;
          const peerUrl = `http://127.0.0.1:${member.peerPort}`;
          const args = [
            ...["--name", member.name, "--data-dir", join(dir, member.name)],
            ...["--listen-client-urls", clientUrl, "--advertise-client-urls", clientUrl],
            ...["--listen-peer-urls", peerUrl, "--initial-advertise-peer-urls", peerUrl],
            ...["--initial-cluster", initialCluster, "--initial-cluster-state", "new"],
            ...["--initial-cluster-token", token],
            ...["--logger", "zap", "--log-outputs", "stderr"],
            ...(options.noFsync ? ["--unsafe-no-fsync"] : []),
          ];
          const { child } = await ManagedProcess.spawn(member.name, "etcd", args, {
            readyLine: /serving client traffic/,
            timeoutMs: START_TIMEOUT_MS,
          });
          processes.push(child);
        }),
      );
      await Promise.all(
        cluster.endpoints.map((endpoint) =>
          waitFor(
            `${endpoint}/health`,
            async () =>
              ((await (await fetch(`${endpoint}/health`)).json()) as { health: string }).health === "true",
            { timeoutMs: START_TIMEOUT_MS, intervalMs: 50 },
          ),
        ),
      );
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
    return cluster;
  }

  /** Kills every member and deletes their data. */
  async destroy(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.kill("SIGKILL")));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
