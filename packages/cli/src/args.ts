// Flag parsing shared by the subcommands: node:util's parseArgs plus checks
// that name the bad flag and value.
import { type ParseArgsConfig, parseArgs as parseNodeArgs } from "node:util";
import { CliError } from "./cli-error.js";

export type FlagSpec = NonNullable<ParseArgsConfig["options"]>;
type Parsed<T extends FlagSpec> = ReturnType<
  typeof parseNodeArgs<{ args: string[]; options: T; strict: true; allowPositionals: true }>
>;

export function parseFlags<T extends FlagSpec>(command: string, args: string[], flags: T): Parsed<T> {
  try {
    return parseNodeArgs({ args, options: flags, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CliError(`binring ${command}: ${(error as Error).message.split("\n")[0]}`);
  }
}

/** A host:port address; port 0 is allowed where binding picks one. */
export function parseAddress(flag: string, value: string): string {
  const match = /^(.+):(\d+)$/.exec(value);
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port > 65535) throw new CliError(`--${flag} must be HOST:PORT, got ${JSON.stringify(value)}`);
  return value;
}

export function parsePositiveInt(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed) || parsed < 1) {
    throw new CliError(`--${flag} must be a positive integer, got ${JSON.stringify(value)}`);
  }
  return parsed;
}

export function requireFlag(command: string, flag: string, value: string | undefined): string {
  if (value === undefined) throw new CliError(`binring ${command}: --${flag} is required`);
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
