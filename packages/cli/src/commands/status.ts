// `binring status`: asks the keepers for the cluster's state and prints it as tables: every
// keeper (alive or not, its slice, its work in hand), then every backend. With --watch it
// asks again every --interval: redrawn in place on a terminal, one block after another otherwise.
import { setTimeout as sleep } from "node:timers/promises";
import { type KeeperStatus, type RepairReport, repairPace } from "@binring/client";
import { MAX_TIMER_MS } from "@binring/core";
import { formatDuration, parseDuration, parseFlags } from "../args.js";
import { CliError } from "../cli-error.js";
import { callerTls, readClusterFile, TLS_DIR_FLAG } from "../cluster-file.js";
import { defineCommand } from "../command.js";
import { ringStatus } from "../keeper-lookup.js";
import { progressBar } from "../progress-line.js";
import { textTable } from "../text-table.js";

export const STATUS = defineCommand({
  name: "status",
  summary: "print every keeper and backend (state, owner, clock, key counts) and the repairs in progress",
  synopsis: "[options]",
  flags: {
    config: { type: "string", value: "FILE", default: "binring.json", description: "the cluster file" },
    json: { type: "boolean", description: "print the status as JSON (one line per interval with --watch)" },
    watch: {
      type: "boolean",
      description: "ask again every --interval until Ctrl-C: redrawn on a terminal, one block each otherwise",
    },
    interval: {
      type: "string",
      value: "DURATION",
      default: "2s",
      description: "time between asks with --watch (at least 100ms)",
    },
    ...TLS_DIR_FLAG,
  },
  example: "binring status --watch --interval 1s",
});

/** Each ask reads a keeper's whole status: a watch asks no more often than this. */
const LEAST_INTERVAL_MS = 100;

export async function statusCommand(args: string[]): Promise<void> {
  const { values } = parseFlags(STATUS, args);
  const intervalMs = parseDuration("interval", values.interval, MAX_TIMER_MS, LEAST_INTERVAL_MS);
  const config = readClusterFile(values.config);
  const tls = callerTls(values["tls-dir"], config);
  if (config.keepers.length === 0) throw new CliError("status needs keepers: the cluster file lists none");
  const show = (status: KeeperStatus) => (values.json ? JSON.stringify(status) : render(status));
  if (!values.watch) {
    process.stdout.write(`${show(await ringStatus(config.keepers, tls, config.backends))}\n`);
    return;
  }
  // Ctrl-C is how a watch ends, so it is a clean exit; so is the reader of a pipe going away.
  process.once("SIGINT", () => process.exit(0));
  process.stdout.on("error", (error: NodeJS.ErrnoException) => process.exit(error.code === "EPIPE" ? 0 : 1));
  const redraw = process.stdout.isTTY === true;
  for (let first = true; ; first = false) {
    const started = new Date();
    const outcome = await ringStatus(config.keepers, tls, config.backends).then(show, (error: unknown) => {
      // A watch outlives a keeper restart: the failure stands where the status would.
      if (error instanceof CliError) return error;
      throw error;
    });
    if (values.json) {
      if (outcome instanceof CliError) process.stderr.write(`${outcome.message}\n`);
      else process.stdout.write(`${outcome}\n`);
    } else {
      const block = outcome instanceof CliError ? outcome.message : outcome;
      process.stdout.write(
        redraw
          ? terminalFrame(
              `every ${formatDuration(intervalMs)}, Ctrl-C stops; ${started.toLocaleTimeString()}\n\n${block}`,
              first,
            )
          : `status at ${started.toISOString()}\n${block}\n\n`,
      );
    }
    // A timer can fire a millisecond before Date.now() reaches its deadline: sleep until it has.
    const nextAt = started.getTime() + intervalMs;
    while (Date.now() < nextAt) await sleep(nextAt - Date.now());
  }
}

/**
 * One redraw on a terminal: the cursor goes home and each line overwrites the last frame's
 * (clearing what is left of it), so the screen does not flicker; the first frame clears it.
 */
export function terminalFrame(text: string, first: boolean): string {
  const lines = text.split("\n").map((line) => `${line}\x1b[K`);
  return `${first ? "\x1b[2J" : ""}\x1b[H${lines.join("\n")}\n\x1b[J`;
}

function render(status: KeeperStatus): string {
  const rows = [["BACKEND", "STATE", "OWNER", "CLAIMED BY", "CLOCK", "KEYS", "LISTS", "BINS", "MISSES"]];
  for (const b of status.backends) {
    rows.push([
      b.address,
      b.leaving ? `${b.state}, leaving` : b.state,
      b.owner ?? "-",
      b.claimedBy ?? "-",
      b.clock ?? "-",
      String(b.keys ?? "-"),
      String(b.lists ?? "-"),
      String(b.bins ?? "-"),
      String(b.misses),
    ]);
  }
  const keepers = [["KEEPER", "ALIVE", "SLICE", "WORKING ON"]];
  for (const k of status.keepers) {
    keepers.push([
      `${k.address}${k.self ? " (answering)" : ""}${k.leaving ? " (leaving)" : ""}`,
      k.cutOff ? "yes, cut off from this keeper" : k.alive ? "yes" : "no",
      k.slice.length === 0 ? "-" : k.slice.join(" "),
      k.working.length === 0 ? "-" : k.working.join(" "),
    ]);
  }
  const repairs =
    status.repairs.length === 0
      ? "repairs: none"
      : `repairs:\n${status.repairs
          .map((r) =>
            r.state === "running" ? `  ${runningRepair(r)}` : `  ${r.kind} ${r.backend}: ${r.state}`,
          )
          .join("\n")}`;
  const place = status.offRing ? " (off the keeper ring: it acts on nothing until added)" : "";
  return `keeper ${status.keeper}${place}, view epoch ${status.epoch}\n${textTable(keepers)}\n\n${textTable(rows)}\n${repairs}`;
}

/**
 * A running repair or fill: a bar over its copies, what it copied, the rate,
 * and when it should end at that rate (by copies done, each a stretch of the ring).
 */
export function runningRepair(repair: RepairReport): string {
  const done = repair.tasksDone ?? 0;
  const total = repair.tasksTotal ?? 0;
  const ms = repair.runningMs ?? 0;
  const bytes = repair.bytesCopied ?? 0;
  const pace = repairPace({ runningMs: ms, bytesCopied: bytes, tasksDone: done, tasksTotal: total });
  const rate = ms > 0 ? `${formatBytes(pace.bytesPerSecond)}/s` : "-";
  const eta = pace.etaMs ? `, about ${Math.ceil(pace.etaMs / 1000)} s left` : "";
  return `${repair.kind} ${repair.backend}: ${progressBar(total > 0 ? done / total : 0)} ${done}/${total} copies, ${repair.entriesCopied ?? 0} entries, ${formatBytes(bytes)} in ${(ms / 1000).toFixed(1)} s (${rate}${eta})`;
}

function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}
