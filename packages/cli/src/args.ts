// Flag parsing shared by the subcommands: node:util's parseArgs, then the
// BINRING_* environment for flags not given (flags > env > cluster file >
// defaults), plus checks that name the bad flag and value.
import { type ParseArgsConfig, parseArgs as parseNodeArgs } from "node:util";
import { CliError } from "./cli-error.js";

export type FlagSpec = NonNullable<ParseArgsConfig["options"]>;
type Parsed<T extends FlagSpec> = ReturnType<
  typeof parseNodeArgs<{ args: string[]; options: T; strict: true; allowPositionals: true }>
>;

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

export function parseFlags<T extends FlagSpec>(
  command: string,
  args: string[],
  flags: T,
  env: NodeJS.ProcessEnv = process.env,
): Parsed<T> {
  let parsed: Parsed<T>;
  try {
    parsed = parseNodeArgs({ args, options: flags, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CliError(`binring ${command}: ${(error as Error).message.split("\n")[0]}`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  for (const [flag, spec] of Object.entries(flags)) {
    const variable = envName(flag);
    const text = env[variable];
    if (values[flag] !== undefined || text === undefined || text === "") continue;
    fromEnv.set(flag, variable);
    if (spec.type === "string") {
      values[flag] = text;
    } else if (text === "true" || text === "1") {
      values[flag] = true;
    } else if (text !== "false" && text !== "0") {
      throw new CliError(`${variable} must be true, false, 1 or 0, got ${JSON.stringify(text)}`);
    }
  }
  return parsed;
}

/** A host:port address; port 0 is allowed where binding picks one. */
export function parseAddress(flag: string, value: string): string {
  const match = /^(.+):(\d+)$/.exec(value);
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port > 65535)
    throw new CliError(`${flagName(flag)} must be HOST:PORT, got ${JSON.stringify(value)}`);
  return value;
}

export function parsePositiveInt(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed) || parsed < 1) {
    throw new CliError(`${flagName(flag)} must be a positive integer, got ${JSON.stringify(value)}`);
  }
  return parsed;
}

/** A whole number, 0 included (0 usually turns the feature off). */
export function parseNonNegativeInt(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed)) {
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

/** A duration such as "500ms", "60s", "10m" or "1h" (a bare number is seconds), in milliseconds. */
export function parseDuration(flag: string, value: string | undefined, fallbackMs: number): number {
  if (value === undefined) return fallbackMs;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value);
  const ms = match ? Number(match[1]) * DURATION_UNITS_MS[match[2] ?? "s"]! : Number.NaN;
  if (!match || !Number.isFinite(ms) || ms < 1) {
    throw new CliError(`--${flag} must be a duration like 500ms, 60s or 10m, got ${JSON.stringify(value)}`);
  }
  return Math.round(ms);
}
