// The data commands: get, set, keys, list-get, list-append, list-remove,
// list-keys and clock on one bin of the cluster named by --config.
import { BinClient } from "@binring/client";
import type { Storage } from "@binring/core";
import { parseFlags } from "../args.js";
import { CliError } from "../cli-error.js";

interface DataCommand {
  /** Positional argument names. */
  args: string[];
  /** Optional trailing positional arguments. */
  optional?: string[];
  run(bin: Storage, args: string[], flags: { prefix: string; suffix: string }): Promise<unknown>;
  /** Human-readable rendering of the result. */
  show(result: unknown): string;
}

const lines = (result: unknown) => (result as string[]).join("\n");

export const DATA_COMMANDS: Record<string, DataCommand> = {
  get: { args: ["KEY"], run: (bin, [key]) => bin.get(key!), show: (r) => (r === null ? "(nil)" : String(r)) },
  set: { args: ["KEY", "VALUE"], run: (bin, [key, value]) => bin.set(key!, value!), show: () => "OK" },
  keys: { args: [], run: (bin, _args, pattern) => bin.keys(pattern), show: lines },
  "list-get": { args: ["KEY"], run: (bin, [key]) => bin.listGet(key!), show: lines },
  "list-append": {
    args: ["KEY", "VALUE"],
    run: (bin, [key, value]) => bin.listAppend(key!, value!),
    show: () => "OK",
  },
  "list-remove": {
    args: ["KEY", "VALUE"],
    run: (bin, [key, value]) => bin.listRemove(key!, value!),
    show: (r) => `removed ${String(r)}`,
  },
  "list-keys": { args: [], run: (bin, _args, pattern) => bin.listKeys(pattern), show: lines },
  clock: {
    args: [],
    optional: ["AT_LEAST"],
    run: (bin, [atLeast]) => {
      if (atLeast !== undefined && !/^\d+$/.test(atLeast)) {
        throw new CliError(`AT_LEAST must be a non-negative integer, got ${JSON.stringify(atLeast)}`);
      }
      return bin.clock(BigInt(atLeast ?? 0));
    },
    show: String,
  },
};

export function dataUsage(name: string): string {
  const command = DATA_COMMANDS[name]!;
  const pattern = command.args.length === 0 && name !== "clock" ? " [--prefix P] [--suffix S]" : "";
  const optional = (command.optional ?? []).map((arg) => ` [${arg}]`).join("");
  return `binring ${name} --config binring.json --bin NAME ${command.args.join(" ")}${optional}${pattern} [--json]`;
}

export async function dataCommand(name: string, argv: string[]): Promise<void> {
  const command = DATA_COMMANDS[name]!;
  const { values, positionals } = parseFlags(name, argv, {
    config: { type: "string" },
    bin: { type: "string" },
    prefix: { type: "string" },
    suffix: { type: "string" },
    json: { type: "boolean" },
  });
  const max = command.args.length + (command.optional?.length ?? 0);
  if (positionals.length < command.args.length || positionals.length > max) {
    throw new CliError(`usage: ${dataUsage(name)}`);
  }
  if (values.bin === undefined)
    throw new CliError(`binring ${name}: --bin is required (any string, "" included)`);
  const client = await BinClient.fromConfig(values.config ?? "binring.json");
  try {
    const result = await command.run(client.bin(values.bin), positionals, {
      prefix: values.prefix ?? "",
      suffix: values.suffix ?? "",
    });
    const output = values.json
      ? JSON.stringify({ result: typeof result === "bigint" ? result.toString() : result })
      : command.show(result);
    if (output !== "") process.stdout.write(`${output}\n`);
  } finally {
    await client.close();
  }
}
