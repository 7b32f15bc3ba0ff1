// `binring status`: asks the keepers for the cluster's state and prints it as tables: every
// keeper (alive or not, its slice, its work in hand), then every backend.
import { fetchKeeperStatus, type KeeperStatus } from "@binring/client";
import type * as grpc from "@grpc/grpc-js";
import { parseFlags } from "../args.js";
import { CliError } from "../cli-error.js";
import { readClusterFile } from "../cluster-file.js";
import { defineCommand } from "../command.js";
import { textTable } from "../text-table.js";

export const STATUS = defineCommand({
  name: "status",
  summary: "print every keeper and backend (state, owner, clock, key counts) and the repairs in progress",
  synopsis: "[options]",
  flags: {
    config: { type: "string", value: "FILE", default: "binring.json", description: "the cluster file" },
    json: { type: "boolean", description: "print the status as JSON" },
  },
  example: "binring status --config binring.json",
});

/** The status from the first keeper that answers. */
async function fetchStatus(keepers: string[]): Promise<KeeperStatus> {
  const failures: string[] = [];
  for (const keeper of keepers) {
    try {
      return await fetchKeeperStatus(keeper);
    } catch (error) {
      failures.push(`${keeper}: ${(error as grpc.ServiceError).details ?? (error as Error).message}`);
    }
  }
  throw new CliError(`no keeper answered (${failures.join("; ")})`, 1);
}

export async function statusCommand(args: string[]): Promise<void> {
  const { values } = parseFlags(STATUS, args);
  const config = readClusterFile(values.config);
  if (config.keepers.length === 0) throw new CliError("status needs keepers: the cluster file lists none");
  const show = (status: KeeperStatus) => (values.json ? JSON.stringify(status) : render(status));
  process.stdout.write(`${show(await fetchStatus(config.keepers))}\n`);
}

function render(status: KeeperStatus): string {
  const rows = [["BACKEND", "STATE", "OWNER", "CLOCK", "KEYS", "LISTS", "BINS", "MISSES"]];
  for (const b of status.backends) {
    rows.push([
      b.address,
      b.state,
      b.owner ?? "-",
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
      `${k.address}${k.self ? " (answering)" : ""}`,
      k.alive ? "yes" : "no",
      k.slice.length === 0 ? "-" : k.slice.join(" "),
      k.working.length === 0 ? "-" : k.working.join(" "),
    ]);
  }
  const repairs =
    status.repairs.length === 0
      ? "repairs: none"
      : `repairs:\n${status.repairs
          .map((r) =>
            r.state === "running"
              ? `  ${r.kind} ${r.backend}: running ${r.runningMs} ms, ${r.tasksDone}/${r.tasksTotal} tasks, ${r.entriesCopied} entries copied`
              : `  ${r.kind} ${r.backend}: ${r.state}`,
          )
          .join("\n")}`;
  return `keeper ${status.keeper}, view epoch ${status.epoch}\n${textTable(keepers)}\n\n${textTable(rows)}\n${repairs}`;
}
