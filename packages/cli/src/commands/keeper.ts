// `binring keeper`: runs keeper number --index of the cluster file until SIGTERM or SIGINT.
import { hostname } from "node:os";
import { DEFAULT_KEEPER_TIMING as DEFAULTS, type KeeperTiming, startKeeper } from "@binring/keeper";
import { flagName, parseAddress, parseFlags, parsePositiveInt, requireFlag } from "../args.js";
import { CliError } from "../cli-error.js";
import { readClusterFile } from "../cluster-file.js";
import { createLogger } from "../logger.js";
import { onShutdown } from "../shutdown.js";

/** Each timing flag and the setting it sets; defaults come from the keeper itself. */
const TIMING_FLAGS = {
  "heartbeat-ms": "heartbeatIntervalMs",
  misses: "missesToDead",
  "lease-ms": "leaseMs",
  "probe-timeout-ms": "probeTimeoutMs",
  "clock-sync-ms": "clockSyncIntervalMs",
  "copy-batch": "copyBatchSize",
} as const satisfies Record<string, keyof KeeperTiming>;

export const KEEPER_USAGE = `binring keeper --config binring.json (--index I | --index-from-hostname) [--listen HOST:PORT] [--http HOST:PORT]
    ${Object.entries(TIMING_FLAGS)
      .map(([flag, setting]) => `[--${flag} ${DEFAULTS[setting]}]`)
      .join(" ")}`;

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
  const timing = Object.fromEntries(
    Object.entries(TIMING_FLAGS).map(([flag, setting]) => [
      setting,
      parsePositiveInt(flag, values[flag as keyof typeof TIMING_FLAGS], DEFAULTS[setting]),
    ]),
  ) as unknown as KeeperTiming;
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
