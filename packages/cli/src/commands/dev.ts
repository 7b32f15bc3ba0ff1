// `binring dev`: a whole local cluster in one command. Each backend gets its
// own redis-server (append-only, under --dir, synced as --appendfsync says), or
// the memory engine when no redis-server is installed. Writes binring.json and
// runs until Ctrl-C.
import { join, resolve } from "node:path";
import { type Appendfsync, LocalCluster } from "@binring/launcher";
import { flagName, parseFlags, parsePositiveInt } from "../args.js";
import { CliError } from "../cli-error.js";
import { CLI_MAIN } from "../cli-main.js";
import { createLogger } from "../logger.js";
import { onShutdown } from "../shutdown.js";

export const DEV_USAGE = `binring dev [--backends 6] [--keepers 3] [--dir .binring] [--config binring.json] [--port-base 7100 | 0]
    [--appendfsync everysec | always]`;

/** --appendfsync: how each Redis syncs its append-only file; "always" survives power loss. */
function parseAppendfsync(value: string | undefined): Appendfsync {
  if (value === undefined) return "everysec";
  if (value === "always" || value === "everysec") return value;
  throw new CliError(`${flagName("appendfsync")} must be always or everysec, got ${JSON.stringify(value)}`);
}

export async function devCommand(args: string[]): Promise<void> {
  const { values } = parseFlags("dev", args, {
    backends: { type: "string" },
    keepers: { type: "string" },
    dir: { type: "string" },
    config: { type: "string" },
    "port-base": { type: "string" },
    appendfsync: { type: "string" },
  });
  const backendCount = parsePositiveInt("backends", values.backends, 6);
  if (backendCount > 64)
    throw new CliError(`--backends must be at most 64 on one machine, got ${backendCount}`);
  const keeperCount = values.keepers === "0" ? 0 : parsePositiveInt("keepers", values.keepers, 3);
  if (keeperCount > 10) throw new CliError(`--keepers must be at most 10, got ${keeperCount}`);
  const portBase = values["port-base"] === "0" ? 0 : parsePositiveInt("port-base", values["port-base"], 7100);
  const appendfsync = parseAppendfsync(values.appendfsync);
  const dir = resolve(values.dir ?? ".binring");
  const configPath = resolve(values.config ?? "binring.json");
  const logger = createLogger("dev");
  const cluster = await LocalCluster.start({
    cli: CLI_MAIN,
    backends: backendCount,
    keepers: keeperCount,
    dir,
    configPath,
    portBase,
    appendfsync,
    logger,
  });
  onShutdown(logger, () => cluster.stop());
  const table = cluster
    .describe()
    .map((row) => `  ${row.map((cell) => cell.padEnd(24)).join("")}`)
    .join("\n");
  process.stderr.write(
    `binring dev: ${backendCount} backends and ${keeperCount} keepers running (Ctrl-C stops them all)\n${table}\n  ${cluster.usesRedis ? `redis appendfsync: ${appendfsync}` : "no redis-server: nothing is written to disk"}\n  cluster file: ${configPath}\n  logs: ${join(dir, "logs")}\n`,
  );
  logger.info({ config: configPath, appendfsync: cluster.usesRedis ? appendfsync : null }, "cluster running");
}
