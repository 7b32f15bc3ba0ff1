// Every `binring` subcommand, in the order `binring --help` lists them: the
// one declaration dispatch.ts looks commands up in and the help test enumerates.
import type { Command } from "./command.js";
import { BACKEND, backendCommand } from "./commands/backend.js";
import { BENCH, benchCommand } from "./commands/bench.js";
import { CERTS, certsCommand } from "./commands/certs.js";
import { CHAOS, chaosCommand } from "./commands/chaos.js";
import { CLUSTER_FILE, clusterFileCommand } from "./commands/cluster-file.js";
import { DATA } from "./commands/data.js";
import { DEV, devCommand } from "./commands/dev.js";
import { KEEPER, keeperCommand } from "./commands/keeper.js";
import { STATUS, statusCommand } from "./commands/status.js";
import { VERIFY, verifyCommand } from "./commands/verify.js";

export const COMMANDS: readonly Command[] = [
  { ...DEV, run: devCommand },
  { ...STATUS, run: statusCommand },
  ...DATA,
  { ...BENCH, run: benchCommand },
  { ...CHAOS, run: chaosCommand },
  { ...VERIFY, run: verifyCommand },
  { ...BACKEND, run: backendCommand },
  { ...KEEPER, run: keeperCommand },
  { ...CLUSTER_FILE, run: clusterFileCommand },
  { ...CERTS, run: certsCommand },
];
