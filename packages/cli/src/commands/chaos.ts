// `binring chaos`: the proof that acknowledged writes survive faults. With
// --local it starts its own cluster (like `binring dev`) and owns its
// processes, so it can SIGKILL, restart and pause them on a schedule that
// stays inside the failure model. With only --config it attaches to a running
// cluster it does not own: it runs the same workload and checks while you
// inject faults yourself, and waits for the cluster to heal before the final
// reads; there, Ctrl-C ends the workload early and checks what ran. The
// history (history.jsonl) goes to --out. A --local cluster runs with mutual
// TLS unless --insecure, like `binring dev`, so the proof covers the transport
// that production uses. With --faults network it runs each process in a
// network namespace of its own (needs root) and also cuts and slows the
// network between them. --store memory runs its backends on the in-memory
// engine (what a machine without redis-server gets anyway), so the engine that
// labs and `binring dev` use there is proven the same way.
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  type ChaosProgress,
  ChaosRun,
  DEFAULT_KEYS,
  FAULT_KINDS,
  type FaultKind,
  type FuzzCounts,
} from "@binring/chaos";
import { parseSabotage } from "@binring/client";
import type { TlsFiles } from "@binring/core";
import { ClusterNetwork, hasRedisServer, LocalCluster } from "@binring/launcher";
import { parseDuration, parseFlags, parsePositiveInt } from "../args.js";
import { writeClusterCertificates } from "../certificate-authority.js";
import { CliError } from "../cli-error.js";
import { CLI_MAIN } from "../cli-main.js";
import { readClusterFile } from "../cluster-file.js";
import { defineCommand } from "../command.js";
import { createLogger } from "../logger.js";
import { makeDirectory } from "../make-directory.js";
import { ProgressLine } from "../progress-line.js";
import { verifyRun } from "../verify-run.js";

/** The cluster --local starts unless told: the flags' defaults, applied only with --local. */
const LOCAL_BACKENDS = 6;
const LOCAL_KEEPERS = 3;
/** Backends membership faults may add in a run with network faults: each needs a namespace made at the start. */
const SPARE_BACKENDS = 16;

export const CHAOS = defineCommand({
  name: "chaos",
  summary: "inject faults under a recorded workload, then check the history for lost writes and stale reads",
  synopsis: "(--local | --config FILE) [options]",
  flags: {
    local: { type: "boolean", description: "start and own a cluster, and inject faults into it" },
    config: {
      type: "string",
      value: "FILE",
      derivedDefault: "binring.json, or DIR/binring.json with --local",
      description: "the cluster to attach to; with --local, where its cluster file goes",
    },
    backends: {
      type: "string",
      value: "N",
      derivedDefault: String(LOCAL_BACKENDS),
      description: "with --local: backends to start, at least 3",
    },
    keepers: {
      type: "string",
      value: "N",
      derivedDefault: String(LOCAL_KEEPERS),
      description: "with --local: keepers to start, at least 1",
    },
    dir: {
      type: "string",
      value: "DIR",
      derivedDefault: "OUT/cluster",
      description: "with --local: where the cluster's data and logs go",
    },
    duration: {
      type: "string",
      value: "DURATION",
      default: "60s",
      description: "how long the workload runs",
    },
    "fault-every": {
      type: "string",
      value: "DURATION",
      default: "5s",
      description: "with --local: time between injected faults",
    },
    faults: {
      type: "string",
      value: "KINDS",
      default: "process",
      description: `with --local: which faults, comma-separated: process (kills, pauses), network (partitions, one-way cuts, slow lossy links; each process in its own network namespace, needs root), keeper-partition (keepers cut from each other only, still reaching the backends), membership (backends added to and removed from the ring; with network faults, at most ${SPARE_BACKENDS} added in a run)`,
    },
    seed: {
      type: "string",
      value: "N",
      derivedDefault: "from the clock",
      description: "seed of the random choices; the same seed replays them",
    },
    clients: {
      type: "string",
      value: "N",
      default: "16",
      description: "concurrent clients, each its own BinClient",
    },
    bins: {
      type: "string",
      value: "N",
      default: String(DEFAULT_KEYS.bins.length),
      description: "bins the workload spreads over (b0, b1, ...), each with the same keys",
    },
    out: {
      type: "string",
      value: "DIR",
      derivedDefault: ".binring/chaos/run-SEED",
      description: "where history.jsonl, summary.md and timeline.svg go",
    },
    fuzz: { type: "boolean", description: "also send random and boundary values beside the workload" },
    insecure: {
      type: "boolean",
      description:
        "with --local: run the cluster without TLS (by default every process and caller uses mutual TLS)",
    },
    store: {
      type: "string",
      value: "redis|memory",
      derivedDefault: "redis, or memory where redis-server is not installed",
      description:
        "with --local: where the backends keep their data; on the in-memory store every kill is of the backend alone, and it returns empty",
    },
  },
  example: "binring chaos --local --duration 60s --seed 1",
});

export async function chaosCommand(args: string[]): Promise<void> {
  const { values } = parseFlags(CHAOS, args);
  const local = values.local === true;
  if (!local && (values.backends || values.keepers || values.dir)) {
    throw new CliError(
      "binring chaos: --backends, --keepers and --dir need --local (a cluster chaos starts itself)",
    );
  }
  if (!local && values.store !== undefined) throw new CliError("binring chaos: --store needs --local");
  const store = values.store ?? (hasRedisServer() ? "redis" : "memory");
  if (store !== "redis" && store !== "memory")
    throw new CliError(`binring chaos: --store must be redis or memory, got ${JSON.stringify(store)}`);
  if (store === "redis" && !hasRedisServer())
    throw new CliError(
      "binring chaos: --store redis needs redis-server on PATH (apt-get install -y redis-server), or --store memory",
    );
  const faults = parseFaults(values.faults);
  if (!local && values.faults !== "process")
    throw new CliError("binring chaos: --faults needs --local (a cluster chaos starts itself)");
  const durationMs = parseDuration("duration", values.duration);
  const faultEveryMs = parseDuration("fault-every", values["fault-every"]);
  const seed = values.seed === undefined ? Date.now() % 1_000_000 : parseSeed(values.seed);
  const clients = parsePositiveInt("clients", values.clients);
  const bins = parsePositiveInt("bins", values.bins);
  const out = resolve(values.out ?? join(".binring", "chaos", `run-${seed}`));
  // The sabotage switch is read here only, and honoured only on a cluster this command started.
  const sabotageText = process.env.BINRING_SABOTAGE || undefined;
  if (sabotageText && !local) {
    throw new CliError(
      "BINRING_SABOTAGE is test-only and needs --local: it is never applied to a cluster chaos does not own",
    );
  }
  let sabotage: ReturnType<typeof parseSabotage>;
  try {
    sabotage = parseSabotage(sabotageText);
  } catch (error) {
    throw new CliError(`BINRING_SABOTAGE: ${(error as Error).message}`);
  }
  makeDirectory(out);
  const logger = createLogger("chaos");
  if (sabotage) logger.warn({ sabotage }, "TEST-ONLY SABOTAGE ENABLED: this run is expected to lose writes");

  let cluster: LocalCluster | undefined;
  let network: ClusterNetwork | undefined;
  let backends: string[];
  let keepers: string[];
  let tls: TlsFiles | undefined;
  if (!local && values.insecure) throw new CliError("binring chaos: --insecure needs --local");
  if (local) {
    const keeperCount =
      values.keepers === "0" ? 0 : parsePositiveInt("keepers", values.keepers ?? String(LOCAL_KEEPERS));
    const backendCount = parsePositiveInt("backends", values.backends ?? String(LOCAL_BACKENDS));
    if (backendCount < 3)
      throw new CliError(`--backends must be at least 3 (a bin has three copies), got ${backendCount}`);
    if (keeperCount === 0)
      throw new CliError("--keepers must be at least 1: without keepers nothing repairs");
    if (faults.has("keeper-partition") && keeperCount < 2)
      throw new CliError(`--faults keeper-partition needs at least 2 keepers, got ${keeperCount}`);
    const dir = resolve(values.dir ?? join(out, "cluster"));
    // The run's checks assume an empty cluster: data left by an earlier run (the same seed again)
    // would read back as values this run never wrote.
    if (values.dir === undefined) rmSync(dir, { recursive: true, force: true });
    else if (existsSync(dir) && readdirSync(dir).length > 0) {
      throw new CliError(
        `binring chaos: --dir ${values.dir} is not empty: chaos starts a fresh cluster; remove it or name another`,
      );
    }
    if (faults.has("network") || faults.has("keeper-partition")) {
      try {
        // Backends added by membership faults run in namespaces made now: a bounded number of them.
        const spareBackends = faults.has("membership") ? SPARE_BACKENDS : 0;
        network = await ClusterNetwork.create({
          dir,
          backends: backendCount,
          keepers: keeperCount,
          spareBackends,
          logger,
        });
      } catch (error) {
        throw new CliError(`binring chaos: --faults ${values.faults}: ${(error as Error).message}`);
      }
    }
    const tlsDir = values.insecure ? undefined : join(dir, "certs");
    if (tlsDir) {
      makeDirectory(tlsDir);
      writeClusterCertificates(tlsDir, network?.addresses ?? [], 30);
    }
    process.stderr.write(
      `binring chaos: starting ${backendCount} backends${store === "memory" ? " on the in-memory store" : ""} and ${keeperCount} keepers under ${dir}${network ? `, each in its own network namespace on ${network.subnet}.0/24` : ""}${tlsDir ? ", with mutual TLS" : ", without TLS"}\n`,
    );
    const starting = LocalCluster.start({
      cli: CLI_MAIN,
      store,
      appendfsync: "everysec",
      backends: backendCount,
      keepers: keeperCount,
      dir,
      configPath: resolve(values.config ?? join(dir, "binring.json")),
      portBase: 0,
      tlsDir,
      network,
      logger,
    });
    // Until the cluster is up, the namespaces are removed here; afterwards by stopCluster.
    cluster = await starting.catch(async (error: unknown) => {
      await network?.remove();
      throw error;
    });
    ({ backends, keepers } = cluster);
    tls = cluster.clientTls;
  } else {
    ({ backends, keepers, tls } = readClusterFile(values.config ?? "binring.json"));
    if (keepers.length === 0)
      throw new CliError("binring chaos needs keepers in the cluster file: it waits on their status");
    process.stderr.write(
      "binring chaos: attached to a cluster it does not own: it injects no faults (kill and restart processes yourself while it runs)\n",
    );
  }
  const stopCluster = async () => {
    const [running, namespaces] = [cluster, network];
    [cluster, network] = [undefined, undefined];
    await running?.stop();
    await namespaces?.remove();
  };
  let chaosRun: ChaosRun | undefined;
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.once(signal, () => {
      // Attached, there is nothing of ours to stop: Ctrl-C means "enough", and the run checks what it recorded.
      if (signal === "SIGINT" && !local && chaosRun) {
        process.stderr.write(
          "binring chaos: SIGINT: ending the workload now and checking its history (SIGINT again aborts)\n",
        );
        chaosRun.endEarly();
        process.once(signal, () => process.exit(code));
        return;
      }
      void stopCluster().finally(() => process.exit(code));
    });
  }
  try {
    process.stderr.write(
      `binring chaos: seed ${seed}, ${clients} clients, ${durationMs / 1000} s${cluster ? `, a fault every ${faultEveryMs / 1000} s` : ""}; history in ${out}\n`,
    );
    const line = new ProgressLine(process.stderr);
    chaosRun = new ChaosRun({
      backends,
      keepers,
      control: cluster,
      durationMs,
      faultEveryMs,
      faults,
      seed,
      outDir: out,
      processes: clients,
      keys: { ...DEFAULT_KEYS, bins: Array.from({ length: bins }, (_, i) => `b${i}`) },
      clientOptions: sabotage ? { unsafeSabotage: sabotage } : {},
      fuzz: values.fuzz === true,
      tls,
      logger,
      onProgress: (progress) =>
        line.update(
          renderProgress(progress),
          progress.phase === "chaos" ? progress.elapsedMs / progress.durationMs : undefined,
        ),
    });
    const result = await chaosRun.run();
    line.finish();
    const { ok, fail, unknown } = result.counts;
    process.stderr.write(
      `binring chaos: ${ok + fail + unknown} operations (ok ${ok}, fail ${fail}, unknown ${unknown}), ${renderFaults(result)}${renderFuzz(result.fuzz)}, healed in ${result.healMs} ms; checking the history\n`,
    );
    await stopCluster();
    const verified = await verifyRun(
      result.historyPath,
      out,
      `binring chaos, seed ${seed}${sabotage ? ` (sabotage: ${sabotage})` : ""}`,
    );
    process.stdout.write(`${verified.lines.join("\n")}\n`);
    process.stderr.write(
      `binring chaos: ${verified.outcome.result.toUpperCase()}; report ${verified.reportPath}, timeline ${verified.timelinePath}, history ${result.historyPath}\n`,
    );
    if (verified.outcome.result === "fail")
      throw new CliError("binring chaos: a checker failed (see the report)", 1);
    if (verified.outcome.result === "unknown")
      throw new CliError(
        "binring chaos: a checker could not decide within its time budget (see the report)",
        3,
      );
  } finally {
    await stopCluster();
  }
}

function parseSeed(value: string): number {
  const seed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(seed)) {
    throw new CliError(`--seed must be a non-negative integer, got ${JSON.stringify(value)}`);
  }
  return seed;
}

function renderProgress(progress: ChaosProgress): string {
  const { ok, fail, unknown } = progress.counts;
  const clock =
    progress.phase === "chaos"
      ? `${Math.round(progress.elapsedMs / 1000)}/${Math.round(progress.durationMs / 1000)} s`
      : progress.phase;
  const impaired = progress.impaired.length > 0 ? `; down: ${progress.impaired.join(", ")}` : "";
  return `  chaos ${clock}: ${ok + fail + unknown} ops (ok ${ok}, fail ${fail}, unknown ${unknown}), ${renderFaults(progress)}${renderFuzz(progress.fuzz)}${impaired}`;
}

function renderFaults({ faults, networkFaults }: { faults: number; networkFaults: number }): string {
  return `${faults} faults${networkFaults > 0 ? ` (${networkFaults} network)` : ""}`;
}

/** --faults: a comma-separated list of FAULT_KINDS. */
function parseFaults(value: string): ReadonlySet<FaultKind> {
  const kinds = value.split(",").map((kind) => kind.trim());
  for (const kind of kinds) {
    if (!(FAULT_KINDS as readonly string[]).includes(kind))
      throw new CliError(
        `--faults must be a comma-separated list of ${FAULT_KINDS.join(", ")}, got ${JSON.stringify(kind)} in ${JSON.stringify(value)}`,
      );
  }
  const faults = new Set(kinds as FaultKind[]);
  return faults;
}

function renderFuzz(fuzz: FuzzCounts | undefined): string {
  if (!fuzz) return "";
  return `, fuzz ${fuzz.answered + fuzz.refused} calls (answered ${fuzz.answered}, refused ${fuzz.refused}, internal ${fuzz.internal})`;
}
