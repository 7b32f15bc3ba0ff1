// `binring status`: asks the keepers for the cluster's state and prints it as tables: every
// keeper (alive or not, its slice, its work in hand), then every backend.

import { loadProtocol } from "@binring/core";
import * as grpc from "@grpc/grpc-js";
import { parseFlags } from "../args.js";
import { CliError } from "../cli-error.js";
import { readClusterFile } from "../cluster-file.js";
import { textTable } from "../text-table.js";

export const STATUS_USAGE = "binring status --config binring.json [--json]";

interface Status {
  keeper: string;
  epoch: string;
  keepers: { address: string; self: boolean; alive: boolean; slice: string[]; working: string[] }[];
  backends: {
    address: string;
    state: string;
    owner: string | null;
    clock: string | null;
    keys: number | null;
    lists: number | null;
    bins: number | null;
    misses: number;
  }[];
  repairs: {
    kind: string;
    backend: string;
    state: string;
    entriesCopied?: number;
    tasksDone?: number;
    tasksTotal?: number;
    runningMs?: number;
  }[];
}

function fetchStatus(address: string): Promise<string> {
  const client = new (loadProtocol().Keeper)(address, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) => {
    client.Status({}, { deadline: new Date(Date.now() + 3000) }, (error, reply) => {
      client.close();
      if (error || !reply) reject(error ?? new Error("empty reply"));
      else resolve(reply.json);
    });
  });
}

export async function statusCommand(args: string[]): Promise<void> {
  const { values } = parseFlags("status", args, { config: { type: "string" }, json: { type: "boolean" } });
  const config = readClusterFile(values.config ?? "binring.json");
  if (config.keepers.length === 0) throw new CliError("status needs keepers: the cluster file lists none");
  const failures: string[] = [];
  for (const keeper of config.keepers) {
    let json: string;
    try {
      json = await fetchStatus(keeper);
    } catch (error) {
      failures.push(`${keeper}: ${(error as grpc.ServiceError).details ?? (error as Error).message}`);
      continue;
    }
    process.stdout.write(`${values.json ? json : render(JSON.parse(json) as Status)}\n`);
    return;
  }
  throw new CliError(`no keeper answered (${failures.join("; ")})`, 1);
}

function render(status: Status): string {
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
