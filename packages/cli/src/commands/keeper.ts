// `binring keeper`: runs keeper number --index of the cluster file until SIGTERM or SIGINT.
import { hostname } from "node:os";
import { startKeeper } from "@binring/keeper";
import { flagName, parseAddress, parseFlags, parsePositiveInt, requireFlag } from "../args.js";
import { CliError } from "../cli-error.js";
import { readClusterFile } from "../cluster-file.js";
import { createLogger } from "../logger.js";
import { onShutdown } from "../shutdown.js";

export const KEEPER_USAGE = `binring keeper --config binring.json (--index I | --index-from-hostname) [--listen HOST:PORT] [--http HOST:PORT]
    [--heartbeat-ms 1000] [--misses 3] [--lease-ms 2500] [--probe-timeout-ms 500] [--clock-sync-ms 500] [--copy-batch 2000]`;

export async function keeperCommand(args: string[]): Promise<void> {
  const { values } = parseFlags("keeper", args, {
    config: { type: "string" },
    index: { type: "string" },
    "index-from-hostname": { type: "boolean" },
    listen: { type: "string" },
    http: { type: "string" },
    "heartbeat-ms": { type: "string" },
    misses: { type: "string" },
    "lease-ms": { type: "string" },
    "probe-timeout-ms": { type: "string" },
    "clock-sync-ms": { type: "string" },
    "copy-batch": { type: "string" },
  });
  const configPath = values.config ?? "binring.json";
  const config = readClusterFile(configPath);
  const indexText = values["index-from-hostname"]
    ? indexFromHostname(values.index)
    : requireFlag("keeper", "index", values.index);
  const index = Number(indexText);
  if (config.keepers.length === 0)
    throw new CliError(`${configPath} lists no keepers: add their addresses to "keepers"`);
  if (!/^\d+$/.test(indexText) || index >= config.keepers.length) {
    throw new CliError(
      `${flagName("index")} must be between 0 and ${config.keepers.length - 1} (the keepers listed in ${configPath}), got ${JSON.stringify(indexText)}`,
    );
  }
  // The cluster file names keepers as others reach them (a DNS name in Kubernetes); --listen binds elsewhere.
  const listen = values.listen === undefined ? config.keepers[index]! : parseAddress("listen", values.listen);
  const host = listen.slice(0, listen.lastIndexOf(":"));
  const httpListen = parseAddress("http", values.http ?? `${host}:0`);
  const logger = createLogger("keeper").child({ keeper: index });
  const timing = {
    heartbeatIntervalMs: parsePositiveInt("heartbeat-ms", values["heartbeat-ms"], 1000),
    missesToDead: parsePositiveInt("misses", values.misses, 3),
    leaseMs: parsePositiveInt("lease-ms", values["lease-ms"], 2500),
    probeTimeoutMs: parsePositiveInt("probe-timeout-ms", values["probe-timeout-ms"], 500),
    clockSyncIntervalMs: parsePositiveInt("clock-sync-ms", values["clock-sync-ms"], 500),
    copyBatchSize: parsePositiveInt("copy-batch", values["copy-batch"], 2000),
  };
  let running: Awaited<ReturnType<typeof startKeeper>>;
  try {
    running = await startKeeper({
      backends: config.backends,
      zones: config.zones,
      keepers: config.keepers,
      index,
      listen,
      httpListen,
      name: `keeper-${index}`,
      timing,
      logger,
    });
  } catch (error) {
    throw new CliError(`binring keeper: ${(error as Error).message}`, 1);
  }
  onShutdown(logger, () => running.close());
}

/** A StatefulSet pod's ordinal, the number its hostname ends with: keeper-2 is keeper 2. */
function indexFromHostname(index: string | undefined): string {
  if (index !== undefined) throw new CliError(`give ${flagName("index")} or --index-from-hostname, not both`);
  const name = hostname();
  const ordinal = /-(\d+)$/.exec(name)?.[1];
  if (ordinal === undefined) {
    throw new CliError(
      `--index-from-hostname: hostname ${JSON.stringify(name)} does not end in -N (a StatefulSet pod's ordinal)`,
    );
  }
  return ordinal;
}
