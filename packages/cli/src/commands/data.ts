// The data commands: get, set, keys, list-get, list-append, list-remove,
// list-keys and clock on one bin of the cluster named by --config.
import type { Storage } from "@binring/core";
import { parseFlags } from "../args.js";
import { CliError } from "../cli-error.js";
import { type Command, defineCommand } from "../command.js";
import { usageLine } from "../help.js";

interface DataCommand {
  summary: string;
  /** Positional argument names. */
  args: string[];
  /** Optional trailing positional arguments. */
  optional?: string[];
  example: string;
  run(bin: Storage, args: string[], flags: { prefix: string; suffix: string }): Promise<unknown>;
  /** Human-readable rendering of the result. */
  show(result: unknown): string;
}

const lines = (result: unknown) => (result as string[]).join("\n");

const DATA_COMMANDS: Record<string, DataCommand> = {
  get: {
    summary: "print KEY's string value in the bin, or (nil) when unset",
    args: ["KEY"],
    example: "binring get --bin alice greeting",
    run: (bin, [key]) => bin.get(key!),
    show: (r) => (r === null ? "(nil)" : String(r)),
  },
  set: {
    summary: 'set KEY to VALUE in the bin; an empty VALUE ("") deletes the key',
    args: ["KEY", "VALUE"],
    example: "binring set --bin alice greeting hello",
    run: (bin, [key, value]) => bin.set(key!, value!),
    show: () => "OK",
  },
  keys: {
    summary: "print the bin's string keys that match --prefix and --suffix, one a line",
    args: [],
    example: "binring keys --bin alice --prefix gr",
    run: (bin, _args, pattern) => bin.keys(pattern),
    show: lines,
  },
  "list-get": {
    summary: "print the list at KEY in append order, one value a line",
    args: ["KEY"],
    example: "binring list-get --bin alice todo --json",
    run: (bin, [key]) => bin.listGet(key!),
    show: lines,
  },
  "list-append": {
    summary: "append VALUE to the list at KEY (duplicates allowed)",
    args: ["KEY", "VALUE"],
    example: 'binring list-append --bin alice todo "write docs"',
    run: (bin, [key, value]) => bin.listAppend(key!, value!),
    show: () => "OK",
  },
  "list-remove": {
    summary: "remove every occurrence of VALUE from the list at KEY and print how many",
    args: ["KEY", "VALUE"],
    example: 'binring list-remove --bin alice todo "write docs"',
    run: (bin, [key, value]) => bin.listRemove(key!, value!),
    show: (r) => `removed ${String(r)}`,
  },
  "list-keys": {
    summary: "print the bin's list keys that match --prefix and --suffix, one a line",
    args: [],
    example: "binring list-keys --bin alice",
    run: (bin, _args, pattern) => bin.listKeys(pattern),
    show: lines,
  },
  clock: {
    summary: "raise the bin's clock to AT_LEAST if below, print it, then increment it",
    args: [],
    optional: ["AT_LEAST"],
    example: "binring clock --bin alice",
    run: (bin, [atLeast]) => {
      if (atLeast !== undefined && !/^\d+$/.test(atLeast)) {
        throw new CliError(`AT_LEAST must be a non-negative integer, got ${JSON.stringify(atLeast)}`);
      }
      return bin.clock(BigInt(atLeast ?? 0));
    },
    show: String,
  },
};

/** Every data command accepts the same flags; --prefix and --suffix narrow keys and list-keys only. */
const dataSpec = (name: string, command: DataCommand) =>
  defineCommand({
    name,
    summary: command.summary,
    synopsis: [
      "--bin NAME [options]",
      ...command.args,
      ...(command.optional ?? []).map((arg) => `[${arg}]`),
    ].join(" "),
    flags: {
      config: { type: "string", value: "FILE", default: "binring.json", description: "the cluster file" },
      bin: { type: "string", value: "NAME", description: 'the bin (any string, "" included); required' },
      prefix: { type: "string", value: "P", description: "keys and list-keys: only keys starting with P" },
      suffix: { type: "string", value: "S", description: "keys and list-keys: only keys ending with S" },
      json: { type: "boolean", description: 'print {"result": ...} as JSON' },
    },
    example: command.example,
  });

async function runDataCommand(spec: ReturnType<typeof dataSpec>, command: DataCommand, argv: string[]) {
  const { values, positionals } = parseFlags(spec, argv);
  const max = command.args.length + (command.optional?.length ?? 0);
  if (positionals.length < command.args.length || positionals.length > max) {
    throw new CliError(`usage: ${usageLine(spec)}`);
  }
  if (values.bin === undefined)
    throw new CliError(`binring ${spec.name}: --bin is required (any string, "" included)`);
  // Imported here, not at the top: see commands.ts.
  const { BinClient } = await import("@binring/client");
  const client = await BinClient.fromConfig(values.config);
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

export const DATA: Command[] = Object.entries(DATA_COMMANDS).map(([name, command]) => {
  const spec = dataSpec(name, command);
  return { ...spec, run: (argv: string[]) => runDataCommand(spec, command, argv) };
});
