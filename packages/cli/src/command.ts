// What a subcommand declares once: its flags (type, default, description), a
// usage synopsis and an example. The parser's options (args.ts) and the help
// text (help.ts) are both derived from it, so help cannot drift from what the
// parser accepts.

export interface FlagSpec {
  type: "string" | "boolean";
  /** The value's placeholder in help: `--listen HOST:PORT`. String flags only. */
  value?: string;
  /** Applied when neither the flag nor its BINRING_* variable is given; shown in help. */
  default?: string;
  /** Shown in help as the default when the command works one out itself (from other flags or the cluster file). */
  derivedDefault?: string;
  /** One line. */
  description: string;
}

export type Flags = Record<string, FlagSpec>;

/** Parsed values: a string flag with a default always has one. */
export type FlagValues<T extends Flags> = {
  [K in keyof T]: T[K]["type"] extends "boolean"
    ? boolean | undefined
    : T[K] extends { default: string }
      ? string
      : string | undefined;
};

export interface CommandSpec<T extends Flags = Flags> {
  name: string;
  /** One line for `binring --help`. */
  summary: string;
  /** What follows `binring NAME` in the usage line: required flags and positionals, e.g. "--bin NAME [options] KEY". */
  synopsis: string;
  flags: T;
  /** A complete command line a user can run. */
  example: string;
}

export interface Command extends CommandSpec {
  run(args: string[]): Promise<void>;
}

/** Keeps the flags' literal types, so parseFlags knows which values are booleans and which have defaults. */
export function defineCommand<const T extends Flags>(spec: CommandSpec<T>): CommandSpec<T> {
  return spec;
}
