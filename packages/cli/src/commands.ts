// Every `binring` subcommand, in the order `binring --help` lists them: the
// one table dispatch.ts looks commands up in and the help test enumerates.
// A command's module (its flags, its code and the packages they import) is
// loaded only when that command is asked for. `binring backend`, which a
// local cluster starts once per backend, then loads @binring/backend and not
// also the keeper, the chaos runner, the launcher, the load generator and the
// certificate authority: they cost every start about 0.15 s of CPU, over a
// third of it.
import type { Command } from "./command.js";
import { DATA } from "./commands/data.js";

export interface CommandEntry {
  name: string;
  load(): Promise<Command>;
}

const COMMAND_MODULES = {
  dev: () => import("./commands/dev.js").then((m) => ({ ...m.DEV, run: m.devCommand })),
  status: () => import("./commands/status.js").then((m) => ({ ...m.STATUS, run: m.statusCommand })),
  bench: () => import("./commands/bench.js").then((m) => ({ ...m.BENCH, run: m.benchCommand })),
  chaos: () => import("./commands/chaos.js").then((m) => ({ ...m.CHAOS, run: m.chaosCommand })),
  verify: () => import("./commands/verify.js").then((m) => ({ ...m.VERIFY, run: m.verifyCommand })),
  backend: () => import("./commands/backend.js").then((m) => ({ ...m.BACKEND, run: m.backendCommand })),
  keeper: () => import("./commands/keeper.js").then((m) => ({ ...m.KEEPER, run: m.keeperCommand })),
  admin: () => import("./commands/admin.js").then((m) => ({ ...m.ADMIN, run: m.adminCommand })),
  "cluster-file": () =>
    import("./commands/cluster-file.js").then((m) => ({ ...m.CLUSTER_FILE, run: m.clusterFileCommand })),
  certs: () => import("./commands/certs.js").then((m) => ({ ...m.CERTS, run: m.certsCommand })),
} satisfies Record<string, () => Promise<Command>>;

const lazy = (name: keyof typeof COMMAND_MODULES): CommandEntry => ({ name, load: COMMAND_MODULES[name] });

export const COMMANDS: readonly CommandEntry[] = [
  lazy("dev"),
  lazy("status"),
  // data.ts is light: it loads @binring/client only when one of its commands runs.
  ...DATA.map((command) => ({ name: command.name, load: async () => command })),
  lazy("bench"),
  lazy("chaos"),
  lazy("verify"),
  lazy("backend"),
  lazy("keeper"),
  lazy("admin"),
  lazy("cluster-file"),
  lazy("certs"),
];

/** Every command, loaded: for `binring --help`, which lists each one's summary. */
export function loadCommands(): Promise<Command[]> {
  return Promise.all(COMMANDS.map((entry) => entry.load()));
}
