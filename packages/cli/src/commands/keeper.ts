// `binring keeper`: runs keeper number --index of the cluster file until
// SIGTERM or SIGINT; or, with --advertise, a keeper the file does not list,
// which acts once added to the keeper ring (with --join it asks for that
// itself).
import { hostname } from "node:os";
import { addKeeper } from "@binring/client";
import { formatHostPort, isWildcardAddress, parseHostPort } from "@binring/core";
import { DEFAULT_KEEPER_TIMING as DEFAULTS, type KeeperTiming, startKeeper } from "@binring/keeper";
import { flagName, parseAddress, parseFlags, parsePositiveInt } from "../args.js";
import { CliError } from "../cli-error.js";
import { readClusterFile } from "../cluster-file.js";
import { defineCommand, type FlagSpec } from "../command.js";
import { joinRing } from "../join-ring.js";
import { lookUpKeepers } from "../keeper-lookup.js";
import { createLogger } from "../logger.js";
import { reloadOnHangup, SERVER_SECURITY_FLAGS, serverTls } from "../server-security.js";
import { onShutdown } from "../shutdown.js";

/** Each timing flag, the setting it sets and what it means; defaults come from the keeper itself. */
const TIMING_FLAGS = {
  "heartbeat-ms": ["heartbeatIntervalMs", "interval of probes to backends and beats to other keepers"],
  misses: ["missesToDead", "missed heartbeats before a backend or keeper is declared dead"],
  "lease-ms": ["leaseMs", "how long a backend's readiness lease lasts; below misses × heartbeat-ms"],
  "probe-timeout-ms": ["probeTimeoutMs", "deadline of one probe"],
  "clock-sync-ms": ["clockSyncIntervalMs", "interval of clock convergence between backends"],
  "copy-batch": ["copyBatchSize", "entries per batch when a repair copies (paced copies: at most 1000)"],
  "rebalance-rate": [
    "rebalanceBytesPerSecond",
    "bytes per second a keeper's fills and decommissions apply to their targets, each source reading no faster (repairs after a death are not held to it)",
  ],
} as const satisfies Record<string, readonly [keyof KeeperTiming, string]>;

const timingFlags = Object.fromEntries(
  Object.entries(TIMING_FLAGS).map(([flag, [setting, description]]) => [
    flag,
    { type: "string", value: "N", default: String(DEFAULTS[setting]), description },
  ]),
) as Record<keyof typeof TIMING_FLAGS, FlagSpec & { type: "string"; default: string }>;

export const KEEPER = defineCommand({
  name: "keeper",
  summary: "run keeper number --index of the cluster file (watches, repairs and rebalances backends)",
  synopsis: "(--index I | --index-from-hostname | --advertise HOST:PORT) [options]",
  flags: {
    config: { type: "string", value: "FILE", default: "binring.json", description: "the cluster file" },
    index: {
      type: "string",
      value: "I",
      description:
        "which keeper of the cluster file this is, from 0; past the file's keepers, give --advertise",
    },
    "index-from-hostname": {
      type: "boolean",
      description: "take the index from a hostname ending in -N (a StatefulSet pod)",
    },
    advertise: {
      type: "string",
      value: "HOST:PORT",
      description:
        "a keeper the cluster file does not list: the address the cluster reaches it at; it acts once added (binring admin add-keeper, or --join)",
    },
    join: {
      type: "boolean",
      description:
        "once listening, ask the keepers of --config to add this keeper to the keeper ring, until one does",
    },
    listen: {
      type: "string",
      value: "HOST:PORT",
      derivedDefault: "its entry in the cluster file",
      description: "address to serve gRPC on",
    },
    http: {
      type: "string",
      value: "HOST:PORT",
      derivedDefault: "the --listen host, a free port",
      description: "address to serve HTTP /status, /health and /metrics (Prometheus) on",
    },
    ...timingFlags,
    ...SERVER_SECURITY_FLAGS,
  },
  example: "binring keeper --config binring.json --index 0 --http 127.0.0.1:8100",
});

export async function keeperCommand(args: string[]): Promise<void> {
  const { values } = parseFlags(KEEPER, args);
  const configPath = values.config;
  const config = readClusterFile(configPath);
  if (config.keepers.length === 0)
    throw new CliError(`${configPath} lists no keepers: add their addresses to "keepers"`);
  const place = keeperPlace(values, config.keepers, configPath);
  // The cluster file names keepers as others reach them (a DNS name in Kubernetes); --listen binds elsewhere.
  const listen = values.listen === undefined ? place.address : parseAddress("listen", values.listen);
  const httpListen = parseAddress("http", values.http ?? formatHostPort(parseHostPort(listen)!.host, 0));
  const tls = serverTls("keeper", "keeper", listen, values);
  const logger = createLogger("keeper").child({ keeper: place.name });
  const timing = Object.fromEntries(
    Object.entries(TIMING_FLAGS).map(([flag, [setting]]) => [
      setting,
      parsePositiveInt(flag, values[flag as keyof typeof TIMING_FLAGS]),
    ]),
  ) as unknown as KeeperTiming;
  const starting = startKeeper({
    backends: config.backends,
    zones: config.zones,
    keepers: config.keepers,
    ...(place.index === undefined ? { address: place.address } : { index: place.index }),
    listen,
    httpListen,
    processMetrics: true,
    name: place.name,
    timing,
    logger,
    tls,
  });
  // Stopping is handled from before the keeper logs that it listens: whoever waits for that may signal at once.
  let stopping = false;
  onShutdown(logger, async () => {
    stopping = true;
    await (await starting).close();
  });
  try {
    await starting;
  } catch (error) {
    throw new CliError(`binring keeper: ${(error as Error).message}`, 1);
  }
  reloadOnHangup(logger, tls);
  // The file's only keeper is on the keeper ring from the start: there is nobody else to ask.
  const others = config.keepers.filter((keeper) => keeper !== place.address);
  if (values.join && others.length > 0) {
    void joinRing({
      what: "keeper",
      address: place.address,
      keepers: others,
      tls,
      logger,
      stopped: () => stopping,
      ask: (keeper, callTls) => addKeeper(keeper, place.address, callTls),
      lookup: (start, tls) => lookUpKeepers(start, tls, config.backends),
    });
  }
}

interface KeeperPlace {
  /** The address the cluster reaches it at. */
  address: string;
  /** Its place in the cluster file; undefined for a keeper the file does not list. */
  index: number | undefined;
  name: string;
}

/** Which keeper this is: one of the cluster file's, by index, or one it does not list, by --advertise. */
function keeperPlace(
  values: { index?: string; "index-from-hostname"?: boolean; advertise?: string },
  keepers: readonly string[],
  configPath: string,
): KeeperPlace {
  const indexText = values["index-from-hostname"] ? indexFromHostname(values.index) : values.index;
  if (indexText === undefined && values.advertise === undefined) {
    throw new CliError(
      `binring keeper: give ${flagName("index")} I, --index-from-hostname, or ${flagName("advertise")} HOST:PORT for a keeper ${configPath} does not list`,
    );
  }
  if (indexText !== undefined && !/^\d+$/.test(indexText)) {
    throw new CliError(`${flagName("index")} must be a whole number, got ${JSON.stringify(indexText)}`);
  }
  const index = indexText === undefined ? undefined : Number(indexText);
  if (index !== undefined && index < keepers.length) {
    if (values.advertise !== undefined && values.advertise !== keepers[index]) {
      throw new CliError(
        `${flagName("advertise")} ${values.advertise} contradicts ${configPath}, which lists keeper ${index} as ${keepers[index]}`,
      );
    }
    return { address: keepers[index]!, index, name: `keeper-${index}` };
  }
  if (values.advertise === undefined) {
    throw new CliError(
      `${flagName("index")} must be between 0 and ${keepers.length - 1} (the keepers listed in ${configPath}), got ${JSON.stringify(indexText)}; a keeper the file does not list needs ${flagName("advertise")} HOST:PORT`,
    );
  }
  const address = parseAddress("advertise", values.advertise);
  if (isWildcardAddress(address)) {
    throw new CliError(
      `${flagName("advertise")} ${address} names no host the other keepers can reach this keeper at: give the host's own address`,
    );
  }
  const listed = keepers.indexOf(address);
  if (listed >= 0) return { address, index: listed, name: `keeper-${listed}` };
  return { address, index: undefined, name: index === undefined ? `keeper-${address}` : `keeper-${index}` };
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
