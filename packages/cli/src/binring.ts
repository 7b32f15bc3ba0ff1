#!/usr/bin/env node
// The `binring` command: dispatches to a subcommand and turns any failure into
// one readable line and a non-zero exit code.
import { BinringError } from "@binring/core";
import { CliError } from "./cli-error.js";
import { dispatch } from "./dispatch.js";

async function main(argv: string[]): Promise<void> {
  const next = await dispatch(argv);
  if ("help" in next) {
    process.stdout.write(next.help);
    return;
  }
  await next.command.run(next.args);
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
