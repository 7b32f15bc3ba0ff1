// `binring dev`: a whole local cluster in one command. Each backend gets its
// own redis-server (append-only, under --dir, synced as --appendfsync says), or
// the memory engine when no redis-server is installed. Secure by default: it
// makes certificates under --dir (keeping their CA across runs), runs every
// process with mutual TLS, and names the client certificate in the binring.json
// it writes. Its data stays under --dir for the next run, which must run as
// this one did (dev-layout.ts) unless --fresh deletes it. Runs until Ctrl-C.
import { join, resolve } from "node:path";
import { type Appendfsync, hasRedisServer, LocalCluster } from "@binring/launcher";
import { flagName, parseFlags, parseNonNegativeInt, parsePositiveInt } from "../args.js";
import { writeClusterCertificates } from "../certificate-authority.js";
import { CliError } from "../cli-error.js";
import { CLI_MAIN } from "../cli-main.js";
import { defineCommand } from "../command.js";
import {
  deleteClusterData,
  layoutConflict,
  plannedLayout,
  recordedLayout,
  recordLayout,
} from "../dev-layout.js";
import { createLogger } from "../logger.js";
import { makeDirectory } from "../make-directory.js";
import { onShutdown } from "../shutdown.js";

const FLAGS = {
  backends: { type: "string", value: "N", default: "6", description: "backends to start (at most 64)" },
  keepers: {
    type: "string",
    value: "N",
    default: "3",
    description: "keepers to start (at most 10); 0 runs without self-healing",
  },
  dir: { type: "string", value: "DIR", default: ".binring", description: "where data and logs go" },
  config: {
    type: "string",
    value: "FILE",
    default: "binring.json",
    description: "the cluster file it writes",
  },
  "port-base": {
    type: "string",
    value: "PORT",
    default: "7100",
    description: "first port (backends from it, keepers from PORT+500); 0 picks free ports",
  },
  appendfsync: {
    type: "string",
    value: "always|everysec",
    default: "everysec",
    description: "how each Redis syncs its append-only file; always survives a power loss",
  },
  insecure: {
    type: "boolean",
    description: "run without TLS: any local process may then call every backend and keeper",
  },
  fresh: {
    type: "boolean",
    description:
      "delete the data an earlier run left under --dir first (needed to run it on other ports or counts)",
  },
} as const;

export const DEV = defineCommand({
  name: "dev",
  // The benchmark reads the default keeper count from this line of `binring --help` (test/src/bench/settings.ts).
  summary: `run a local cluster until Ctrl-C (--backends ${FLAGS.backends.default} --keepers ${FLAGS.keepers.default}, a redis-server each); writes the cluster file`,
  synopsis: "[options]",
  flags: FLAGS,
  example: "binring dev --backends 3 --keepers 3 --port-base 0",
});

/** --appendfsync: how each Redis syncs its append-only file; "always" survives power loss. */
function parseAppendfsync(value: string): Appendfsync {
  if (value === "always" || value === "everysec") return value;
  throw new CliError(`${flagName("appendfsync")} must be always or everysec, got ${JSON.stringify(value)}`);
}

export async function devCommand(args: string[]): Promise<void> {
  const { values } = parseFlags(DEV, args);
  const backendCount = parsePositiveInt("backends", values.backends);
  if (backendCount > 64)
    throw new CliError(`--backends must be at most 64 on one machine, got ${backendCount}`);
  const keeperCount = parseNonNegativeInt("keepers", values.keepers);
  if (keeperCount > 10) throw new CliError(`--keepers must be at most 10, got ${keeperCount}`);
  const portBase = parseNonNegativeInt("port-base", values["port-base"]);
  // The last backend's Redis takes the highest port of the layout (local-cluster-options.ts).
  const highestPort = portBase + 1000 + backendCount - 1;
  if (portBase > 0 && highestPort > 65535) {
    throw new CliError(
      `--port-base ${portBase} puts backend-${backendCount - 1}'s Redis on port ${highestPort}, past 65535: give at most ${65535 - 1000 - (backendCount - 1)} with --backends ${backendCount}, or 0 for free ports`,
    );
  }
  const appendfsync = parseAppendfsync(values.appendfsync);
  const dir = resolve(values.dir);
  const configPath = resolve(values.config);
  const logger = createLogger("dev");
  makeDirectory(dir);
  if (values.fresh) deleteClusterData(dir);
  const recorded = hasRedisServer() ? recordedLayout(dir) : undefined;
  if (recorded) {
    const conflict = layoutConflict(dir, recorded, plannedLayout(portBase, backendCount, keeperCount));
    if (conflict) throw new CliError(conflict);
  }
  const tlsDir = values.insecure ? undefined : join(dir, "certs");
  if (tlsDir) {
    makeDirectory(tlsDir);
    const { newCa } = writeClusterCertificates(tlsDir, [], 365);
    logger.info({ dir: tlsDir, newCa }, "certificates written");
  }
  const cluster = await LocalCluster.start({
    cli: CLI_MAIN,
    backends: backendCount,
    keepers: keeperCount,
    dir,
    configPath,
    portBase,
    appendfsync,
    tlsDir,
    logger,
  });
  onShutdown(logger, () => cluster.stop());
  if (cluster.usesRedis)
    recordLayout(dir, { portBase, backends: cluster.backends, keepers: cluster.keepers });
  const table = cluster
    .describe()
    .map((row) => `  ${row.map((cell) => cell.padEnd(24)).join("")}`)
    .join("\n");
  const metrics = [...cluster.members.map((member) => member.http), ...cluster.keeperHttp]
    .map((address) => `http://${address}/metrics`)
    .join(" ");
  process.stderr.write(
    `binring dev: ${backendCount} backends and ${keeperCount} keepers running (Ctrl-C stops them all)\n${table}\n  ${cluster.usesRedis ? `redis appendfsync: ${appendfsync}; every Redis requires the password in ${join(dir, "redis-password")}` : "no redis-server: nothing is written to disk"}\n  metrics (Prometheus): ${metrics}\n  cluster file: ${configPath}\n  ${tlsDir ? `mutual TLS: clients use the certificate in the cluster file; operator commands take --tls-dir ${tlsDir}` : "no TLS (--insecure): any local process may call every backend and keeper"}\n  logs: ${join(dir, "logs")}\n`,
  );
  logger.info({ config: configPath, appendfsync: cluster.usesRedis ? appendfsync : null }, "cluster running");
}
