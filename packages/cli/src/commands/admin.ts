// `binring admin add-backend|remove-backend|add-keeper|remove-keeper ADDRESS`:
// membership changes of a running cluster, asked of a keeper on the keeper
// ring, found from the cluster file's (keeper-lookup.ts). With --wait the
// command follows the change on the keepers' status until it is complete,
// showing the copy's progress.
import { setTimeout as sleep } from "node:timers/promises";
import {
  addBackend,
  addKeeper,
  fetchKeeperStatus,
  type KeeperStatus,
  type MembershipChange,
  removeBackend,
  removeKeeper,
} from "@binring/client";
import { isBackendAddress, memberAddressProblem, type TlsFiles, zoneProblem } from "@binring/core";
import { formatDuration, parseDuration, parseFlags } from "../args.js";
import { CliError } from "../cli-error.js";
import { callerTls, readClusterFile, TLS_DIR_FLAG } from "../cluster-file.js";
import { defineCommand } from "../command.js";
import { askKeepers, keepersToAsk, ringStatus } from "../keeper-lookup.js";
import { ProgressLine } from "../progress-line.js";

const ACTIONS = ["add-backend", "remove-backend", "add-keeper", "remove-keeper"] as const;
type Action = (typeof ACTIONS)[number];

/** How often --wait asks the keepers how far the change got. */
const POLL_MS = 500;

export const ADMIN = defineCommand({
  name: "admin",
  summary:
    "change the cluster's membership while it runs: add-backend, remove-backend, add-keeper, remove-keeper ADDRESS",
  synopsis: "add-backend|remove-backend|add-keeper|remove-keeper ADDRESS [options]",
  flags: {
    config: { type: "string", value: "FILE", default: "binring.json", description: "the cluster file" },
    zone: { type: "string", value: "ZONE", description: "add-backend: the backend's failure domain" },
    wait: {
      type: "boolean",
      description:
        "return once the change is complete: an added backend holds its share of bins, a removed one has left the ring; an added keeper owns its slice, a removed one has handed its slice over",
    },
    timeout: {
      type: "string",
      value: "DURATION",
      default: "1h",
      description: "with --wait, give up (exit 1) after this long; the change goes on",
    },
    json: { type: "boolean", description: "print the outcome as one JSON line" },
    ...TLS_DIR_FLAG,
  },
  example: "binring admin add-backend 10.0.0.7:7000 --zone b --wait",
});

export async function adminCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseFlags(ADMIN, args);
  const [action, address, ...extra] = positionals;
  if (!ACTIONS.includes(action as Action)) {
    throw new CliError(
      `admin: the first argument must be one of ${ACTIONS.join(", ")}, got ${JSON.stringify(action ?? "")}`,
    );
  }
  const kind = action?.endsWith("keeper") ? "keeper" : "backend";
  if (address === undefined || extra.length > 0) {
    throw new CliError(`admin ${action}: give exactly one ${kind} address (host:port)`);
  }
  // A wildcard address already on the ring (recorded before it was refused) may still be removed.
  const problem = action?.startsWith("add")
    ? memberAddressProblem(address)
    : isBackendAddress(address)
      ? undefined
      : `must be "host:port", got ${JSON.stringify(address)}`;
  if (problem !== undefined) throw new CliError(`admin ${action}: ${kind} address ${problem}`);
  if (action !== "add-backend" && values.zone !== undefined) {
    throw new CliError(`admin ${action}: --zone applies to add-backend only`);
  }
  const zoneIssue = values.zone === undefined ? undefined : zoneProblem(values.zone);
  if (zoneIssue !== undefined) throw new CliError(`admin ${action}: --zone ${zoneIssue}`);
  const timeoutMs = parseDuration("timeout", values.timeout);
  const config = readClusterFile(values.config);
  const tls = callerTls(values["tls-dir"], config);
  if (config.keepers.length === 0) {
    throw new CliError(`admin ${action} needs keepers: the cluster file ${values.config} lists none`);
  }
  const started = Date.now();
  const ask = {
    "add-backend": (keeper: string) => addBackend(keeper, address, values.zone ?? "", tls),
    "remove-backend": (keeper: string) => removeBackend(keeper, address, tls),
    "add-keeper": (keeper: string) => addKeeper(keeper, address, tls),
    "remove-keeper": (keeper: string) => removeKeeper(keeper, address, tls),
  }[action as Action];
  const keepers = keepersToAsk(await ringStatus(config.keepers, tls, config.backends), config.keepers);
  // A keeper being added only waits to be added: the others are asked.
  const change = await askKeepers(
    action === "add-keeper" ? keepers.filter((keeper) => keeper !== address) : keepers,
    ask,
  );
  if (!values.json) process.stdout.write(`${describe(action as Action, address, change)}\n`);
  if (values.wait) await waitUntilDone(action as Action, address, keepers, tls, timeoutMs);
  if (values.json) {
    const waited = values.wait ? { waitedMs: Date.now() - started } : {};
    process.stdout.write(`${JSON.stringify({ action, address, ...change, ...waited })}\n`);
  } else if (values.wait) {
    process.stdout.write(`${DONE[action as Action](address)} (${formatDuration(Date.now() - started)})\n`);
  }
}

const DONE: Record<Action, (address: string) => string> = {
  "add-backend": (address) => `${address} holds its share of bins`,
  "remove-backend": (address) => `${address} has left the ring: it may be stopped`,
  "add-keeper": (address) => `${address} owns its slice of the backends`,
  "remove-keeper": (address) => `${address} has left the keeper ring: it may be stopped`,
};

function describe(action: Action, address: string, change: MembershipChange): string {
  if (!change.changed) {
    return action.startsWith("add")
      ? `${address} is already a member: nothing changed`
      : `${address} is already leaving: nothing changed`;
  }
  return {
    "add-backend": `${address} added to the ring: its keeper empties it, then fills it with its share of bins`,
    "remove-backend": `${address} is leaving the ring: its bins are copied to their new replicas, then it leaves`,
    "add-keeper": `${address} added to the keeper ring: it takes its slice of the backends over`,
    "remove-keeper": `${address} is leaving the keeper ring: it hands its slice over, then leaves`,
  }[action];
}

/** Follows the change on the keepers' status until it is complete, printing progress to stderr. */
async function waitUntilDone(
  action: Action,
  address: string,
  keepers: string[],
  tls: TlsFiles | undefined,
  timeoutMs: number,
): Promise<void> {
  const progress = new ProgressLine(process.stderr);
  const deadline = Date.now() + timeoutMs;
  let shown = "";
  for (;;) {
    // An added keeper is followed on its own status: it knows when it owns its slice.
    const status = await (action === "add-keeper"
      ? askKeepers([address], (keeper) => fetchKeeperStatus(keeper, undefined, tls))
      : ringStatus(keepers, tls)
    ).catch((error: unknown) => error as CliError);
    if (!(status instanceof CliError)) {
      const outcome = PROGRESS[action](status, address);
      if (outcome === "done") {
        progress.finish();
        return;
      }
      // A pipe or a log gets a line per change; a terminal a bar redrawn in place.
      if (process.stderr.isTTY || outcome.text !== shown) progress.update(outcome.text, outcome.fraction);
      shown = outcome.text;
    }
    if (Date.now() >= deadline) {
      progress.finish();
      throw new CliError(
        `admin ${action} ${address}: not complete after ${formatDuration(timeoutMs)}; the change goes on (see binring status)`,
        1,
      );
    }
    await sleep(POLL_MS);
  }
}

interface Progress {
  text: string;
  fraction?: number;
}

const PROGRESS: Record<Action, (status: KeeperStatus, address: string) => "done" | Progress> = {
  "add-backend": addProgress,
  "remove-backend": removeProgress,
  "add-keeper": addKeeperProgress,
  "remove-keeper": removeKeeperProgress,
};

/** An added keeper (answering for itself) is done once it is on the ring and every backend has an owner again. */
function addKeeperProgress(status: KeeperStatus): "done" | Progress {
  if (status.offRing) return { text: `${status.address}: waiting to learn it was added` };
  const unowned = status.backends.filter((backend) => backend.owner === null).length;
  if (unowned === 0) return "done";
  return { text: `${status.address}: on the keeper ring; ${unowned} backends changing owner` };
}

/** A removed keeper is done once the answering keeper lists it no more, or it answers itself from off the ring. */
function removeKeeperProgress(status: KeeperStatus, address: string): "done" | Progress {
  if (status.address === address) {
    return status.offRing ? "done" : { text: `${address}: leaving, handing its slice over` };
  }
  const keeper = status.keepers.find((k) => k.address === address);
  if (!keeper) return "done";
  return { text: `${address}: leaving, ${keeper.slice.length} backends still in its slice` };
}

/** An added backend is done once it is ready and no keeper has work on it (its fill and the drops after it). */
function addProgress(status: KeeperStatus, address: string): "done" | Progress {
  const backend = status.backends.find((b) => b.address === address);
  if (!backend) return { text: `${address}: waiting for the keepers to list it` };
  const busy = workOn(status, address);
  if (backend.state === "ready" && !busy) return "done";
  return {
    text: `${address}: ${backend.state}${copyText(status, address)}`,
    fraction: copyFraction(status, address),
  };
}

/** A removed backend is done once no keeper lists it. */
function removeProgress(status: KeeperStatus, address: string): "done" | Progress {
  const backend = status.backends.find((b) => b.address === address);
  if (!backend) return "done";
  const phase =
    backend.state === "dead" ? "copying its bins to their new replicas" : "waiting for its lease to lapse";
  return {
    text: `${address}: leaving, ${phase}${copyText(status, address)}`,
    fraction: copyFraction(status, address),
  };
}

function workOn(status: KeeperStatus, address: string): boolean {
  return (
    status.repairs.some((repair) => repair.backend === address) ||
    status.keepers.some((keeper) => keeper.working.includes(address))
  );
}

function running(status: KeeperStatus, address: string) {
  return status.repairs.find((repair) => repair.backend === address && repair.state === "running");
}

function copyText(status: KeeperStatus, address: string): string {
  const repair = running(status, address);
  if (!repair) return "";
  return `, ${repair.kind}: ${repair.tasksDone ?? 0}/${repair.tasksTotal ?? 0} copies, ${repair.entriesCopied ?? 0} entries`;
}

function copyFraction(status: KeeperStatus, address: string): number | undefined {
  const repair = running(status, address);
  return repair?.tasksTotal ? (repair.tasksDone ?? 0) / repair.tasksTotal : undefined;
}
