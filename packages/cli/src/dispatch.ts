// What `binring ARGV` asks for before any subcommand runs: the overview, one
// command's help, or a command to run with its arguments. main.ts acts on the
// answer; the help test asks the same function in process, so it covers every
// subcommand's help without starting a process for each.
import { asksForHelp } from "./args.js";
import { CliError } from "./cli-error.js";
import type { Command } from "./command.js";
import { COMMANDS, loadCommands } from "./commands.js";
import { renderCommandHelp, renderOverview } from "./help.js";

export type Dispatch = { help: string } | { command: Command; args: string[] };

/** Loads only the command asked for (see commands.ts); rejects with a CliError (exit 2) for an unknown name. */
export async function dispatch(argv: readonly string[]): Promise<Dispatch> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || (name === "help" && args.length === 0)) {
    return { help: renderOverview(await loadCommands()) };
  }
  // `binring help COMMAND` is `binring COMMAND --help`.
  const commandName = name === "help" ? args[0] : name;
  const entry = COMMANDS.find((candidate) => candidate.name === commandName);
  if (!entry)
    throw new CliError(`binring: unknown command ${JSON.stringify(commandName)}; run "binring help"`);
  const command = await entry.load();
  if (name === "help" || asksForHelp(args)) return { help: renderCommandHelp(command) };
  return { command, args };
}
