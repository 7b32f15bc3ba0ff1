// Flag parsing shared by the subcommands: node:util's parseArgs with options
// derived from the command's declaration (command.ts), then the BINRING_*
// environment for flags not given, then the declared defaults (flags > env >
// cluster file > defaults), plus checks that name the bad flag and value.
import { type ParseArgsConfig, parseArgs as parseNodeArgs } from "node:util";
import { MAX_TIMER_MS, parseHostPort } from "@binring/core";
import { CliError } from "./cli-error.js";
import type { CommandSpec, Flags, FlagValues } from "./command.js";

/** Flags whose value came from the environment, with the variable's name: errors name the variable. */
const fromEnv = new Map<string, string>();

/** The environment variable that stands for a flag: --probe-timeout-ms is BINRING_PROBE_TIMEOUT_MS. */
export function envName(flag: string): string {
  return `BINRING_${flag.toUpperCase().replaceAll("-", "_")}`;
}

/** How an error names a flag: `--listen`, or `BINRING_LISTEN` when the value came from there. */
export function flagName(flag: string): string {
  const variable = fromEnv.get(flag);
  return variable ? `${variable} (--${flag})` : `--${flag}`;
}

/** True when ARGS ask for help: `--help` or `-h` before any `--` (after it they are positionals). */
export function asksForHelp(args: string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
}

export function parseFlags<T extends Flags>(
  command: CommandSpec<T>,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): { values: FlagValues<T>; positionals: string[] } {
  const options: NonNullable<ParseArgsConfig["options"]> = Object.fromEntries(
    Object.entries(command.flags).map(([flag, spec]) => [flag, { type: spec.type }]),
  );
  let parsed: ReturnType<typeof parseNodeArgs>;
  try {
    parsed = parseNodeArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CliError(
      `binring ${command.name}: ${parseProblem(command.name, args, (error as Error).message)}`,
    );
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  for (const [flag, spec] of Object.entries(command.flags)) {
    const variable = envName(flag);
    const text = env[variable];
    if (values[flag] === undefined && text !== undefined && text !== "") {
      fromEnv.set(flag, variable);
      if (spec.type === "string") {
        values[flag] = text;
      } else if (text === "true" || text === "1") {
        values[flag] = true;
      } else if (text !== "false" && text !== "0") {
        throw new CliError(`${variable} must be true, false, 1 or 0, got ${JSON.stringify(text)}`);
      }
    }
    if (values[flag] === undefined && spec.default !== undefined) values[flag] = spec.default;
  }
  return { values: values as FlagValues<T>, positionals: parsed.positionals };
}

/**
 * node's parseArgs refusal as one line. Its advice on unknown options is about
 * `--`; the useful pointer is the help. A value that starts with a dash (a
 * negative number, say) reads as a flag: the line names it and how to pass it.
 */
function parseProblem(command: string, args: string[], message: string): string {
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `Unknown option '${unknown[1]}'; "binring ${command} --help" lists the options`;
  const ambiguous = /^Option '(--[^' ]+)[^']*' argument is ambiguous/.exec(message);
  const value = ambiguous ? args[args.indexOf(ambiguous[1]!) + 1] : undefined;
  if (ambiguous && value !== undefined) {
    return `${ambiguous[1]} ${value}: a value starting with "-" reads as an option; write ${ambiguous[1]}=${value}`;
  }
  return message.split("\n")[0]!;
}

/** A host:port address ([v6]:port for an IPv6 literal); port 0 is allowed where binding picks one. */
export function parseAddress(flag: string, value: string): string {
  if (!parseHostPort(value))
    throw new CliError(`${flagName(flag)} must be HOST:PORT, got ${JSON.stringify(value)}`);
  return value;
}

export function parsePositiveInt(flag: string, value: string): number {
  const parsed = Number(value);
  if (/^\d+$/.test(value) && !Number.isSafeInteger(parsed)) throw tooLarge(flag, value);
  if (!/^\d+$/.test(value) || parsed < 1) {
    throw new CliError(`${flagName(flag)} must be a positive integer, got ${JSON.stringify(value)}`);
  }
  return parsed;
}

function tooLarge(flag: string, value: string): CliError {
  return new CliError(
    `${flagName(flag)} must be at most ${Number.MAX_SAFE_INTEGER}, got ${JSON.stringify(value)}`,
  );
}

/** A whole number, 0 included (0 usually turns the feature off). */
export function parseNonNegativeInt(flag: string, value: string): number {
  const parsed = Number(value);
  if (/^\d+$/.test(value) && !Number.isSafeInteger(parsed)) throw tooLarge(flag, value);
  if (!/^\d+$/.test(value)) {
    throw new CliError(`${flagName(flag)} must be a whole number (0 or more), got ${JSON.stringify(value)}`);
  }
  return parsed;
}

export function requireFlag(command: string, flag: string, value: string | undefined): string {
  if (value === undefined)
    throw new CliError(`binring ${command}: --${flag} (or ${envName(flag)}) is required`);
  return value;
}

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A duration such as "500ms", "60s", "10m" or "1h" (a bare number is seconds), in milliseconds;
 * at most `mostMs`, by default the longest a timer waits (a longer one would fire at once).
 */
export function parseDuration(flag: string, value: string, mostMs = MAX_TIMER_MS, leastMs = 1): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value);
  const ms = match ? Number(match[1]) * DURATION_UNITS_MS[match[2] ?? "s"]! : Number.NaN;
  if (!match || !Number.isFinite(ms) || ms < 1) {
    throw new CliError(
      `${flagName(flag)} must be a duration like 500ms, 60s or 10m, got ${JSON.stringify(value)}`,
    );
  }
  if (ms < leastMs)
    throw new CliError(`${flagName(flag)} must be at least ${leastMs}ms, got ${JSON.stringify(value)}`);
  if (Math.round(ms) > mostMs) {
    const why = mostMs === MAX_TIMER_MS ? " (about 24.8 days, the longest a timer waits)" : "";
    throw new CliError(`${flagName(flag)} must be at most ${mostMs}ms${why}, got ${JSON.stringify(value)}`);
  }
  return Math.round(ms);
}

/** The shortest text parseDuration reads back as MS: 86400000 is "24h". */
export function formatDuration(ms: number): string {
  const unit = ["h", "m", "s"].find((name) => ms % DURATION_UNITS_MS[name]! === 0);
  return unit ? `${ms / DURATION_UNITS_MS[unit]!}${unit}` : `${ms}ms`;
}
