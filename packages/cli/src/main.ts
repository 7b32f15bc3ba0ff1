#!/usr/bin/env node
// The `binring` command: dispatches to a subcommand and turns any failure into
// one readable line and a non-zero exit code.
import { BinringError } from "@binring/core";
import { CliError } from "./cli-error.js";
import { BACKEND_USAGE, backendCommand } from "./commands/backend.js";
import { BENCH_USAGE, benchCommand } from "./commands/bench.js";
import { CHAOS_USAGE, chaosCommand } from "./commands/chaos.js";
import { CLUSTER_FILE_USAGE, clusterFileCommand } from "./commands/cluster-file.js";
import { DATA_COMMANDS, dataCommand, dataUsage } from "./commands/data.js";
import { DEV_USAGE, devCommand } from "./commands/dev.js";
import { KEEPER_USAGE, keeperCommand } from "./commands/keeper.js";
import { STATUS_USAGE, statusCommand } from "./commands/status.js";
import { VERIFY_USAGE, verifyCommand } from "./commands/verify.js";

const COMMANDS: Record<string, { usage: string; run(args: string[]): Promise<void> }> = {
  backend: { usage: BACKEND_USAGE, run: backendCommand },
  keeper: { usage: KEEPER_USAGE, run: keeperCommand },
  status: { usage: STATUS_USAGE, run: statusCommand },
  dev: { usage: DEV_USAGE, run: devCommand },
  bench: { usage: BENCH_USAGE, run: benchCommand },
  chaos: { usage: CHAOS_USAGE, run: chaosCommand },
  "cluster-file": { usage: CLUSTER_FILE_USAGE, run: clusterFileCommand },
  verify: { usage: VERIFY_USAGE, run: verifyCommand },
  ...Object.fromEntries(
    Object.keys(DATA_COMMANDS).map((name) => [
      name,
      { usage: dataUsage(name), run: (args: string[]) => dataCommand(name, args) },
    ]),
  ),
};

function usage(): string {
  return ["usage:", ...Object.values(COMMANDS).map((c) => `  ${c.usage}`)].join("\n");
}

async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(`${usage()}\n`);
    return;
  }
  const command = COMMANDS[name];
  if (!command) throw new CliError(`binring: unknown command ${JSON.stringify(name)}; run "binring help"`);
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
