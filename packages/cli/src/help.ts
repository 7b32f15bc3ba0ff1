// Help text, derived from the commands' declarations (command.ts): what
// `binring --help` and `binring COMMAND --help` print on stdout.
import { envName } from "./args.js";
import type { CommandSpec, FlagSpec } from "./command.js";

export function usageLine(command: CommandSpec): string {
  return `binring ${command.name} ${command.synopsis}`.trimEnd();
}

function flagLabel(flag: string, spec: FlagSpec): string {
  return spec.type === "string" ? `--${flag} ${spec.value ?? "VALUE"}` : `--${flag}`;
}

function flagLine(label: string, width: number, spec: Omit<FlagSpec, "type">): string {
  const shown = spec.default ?? spec.derivedDefault;
  const fallback = shown === undefined ? "" : ` (default: ${shown})`;
  return `  ${label.padEnd(width)}  ${spec.description}${fallback}`;
}

/** `binring COMMAND --help`: usage, what it does, every flag with its default, one example. */
export function renderCommandHelp(command: CommandSpec): string {
  const flags = Object.entries(command.flags);
  const labels = flags.map(([flag, spec]) => flagLabel(flag, spec));
  const help = "-h, --help";
  const width = Math.max(help.length, ...labels.map((label) => label.length));
  const envExample = flags[0] ? ` (--${flags[0][0]} is ${envName(flags[0][0])})` : "";
  return [
    `usage: ${usageLine(command)}`,
    "",
    command.summary,
    "",
    "options:",
    ...flags.map(([, spec], i) => flagLine(labels[i]!, width, spec)),
    flagLine(help, width, { description: "print this help and exit" }),
    ...(flags.length > 0 ? ["", `Every option can also be set as BINRING_ plus its name${envExample}.`] : []),
    "",
    "example:",
    `  ${command.example}`,
    "",
  ].join("\n");
}

/** `binring --help`: every subcommand, one line each. */
export function renderOverview(commands: readonly CommandSpec[]): string {
  const width = Math.max(...commands.map((command) => `binring ${command.name}`.length));
  return [
    "usage: binring COMMAND [options]; binring COMMAND --help explains one",
    "",
    "commands:",
    ...commands.map((command) => `  ${`binring ${command.name}`.padEnd(width)}  ${command.summary}`),
    "",
  ].join("\n");
}
