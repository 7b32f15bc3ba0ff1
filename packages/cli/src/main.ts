#!/usr/bin/env node
// The `binring` command: dispatches to a subcommand and turns any failure into
// one readable line and a non-zero exit code.
import { BinringError } from "@binring/core";
import { asksForHelp } from "./args.js";
import { CliError } from "./cli-error.js";
import { COMMANDS } from "./commands.js";
import { renderCommandHelp, renderOverview } from "./help.js";

async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || (name === "help" && args.length === 0)) {
    process.stdout.write(renderOverview(COMMANDS));
    return;
  }
  // `binring help COMMAND` is `binring COMMAND --help`.
  const commandName = name === "help" ? args[0] : name;
  const command = COMMANDS.find((candidate) => candidate.name === commandName);
  if (!command)
    throw new CliError(`binring: unknown command ${JSON.stringify(commandName)}; run "binring help"`);
  if (name === "help" || asksForHelp(args)) {
    process.stdout.write(renderCommandHelp(command));
    return;
  }
  await command.run(args);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const exitCode = error instanceof CliError ? error.exitCode : 1;
  const message =
    error instanceof CliError || error instanceof BinringError
      ? error.message
      : `binring: ${(error as Error).message ?? String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exit(exitCode);
});
