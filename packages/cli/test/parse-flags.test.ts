// The flags of every subcommand go through parseFlags and the value parsers:
// a refusal is one line that names the flag and the value it got.
import { describe, expect, it } from "vitest";
import { parseDuration, parseFlags } from "../src/args.js";
import { defineCommand } from "../src/command.js";

const COMMAND = defineCommand({
  name: "try",
  summary: "a command for the tests",
  synopsis: "[options]",
  flags: { seed: { type: "string", value: "N", description: "a number" } },
  example: "binring try --seed 1",
});

describe("parseFlags", () => {
  it("names a value that starts with a dash, and how to give it", () => {
    expect(() => parseFlags(COMMAND, ["--seed", "-1"], {})).toThrow(
      'binring try: --seed -1: a value starting with "-" reads as an option; write --seed=-1',
    );
    expect(parseFlags(COMMAND, ["--seed=-1"], {}).values.seed).toBe("-1");
  });

  it("points at the help for an unknown option", () => {
    expect(() => parseFlags(COMMAND, ["--colour"], {})).toThrow(
      `binring try: Unknown option '--colour'; "binring try --help" lists the options`,
    );
  });
});

describe("parseDuration", () => {
  it("refuses a duration under the least the flag allows, naming it", () => {
    expect(() => parseDuration("interval", "1ms", 60_000, 100)).toThrow(
      '--interval must be at least 100ms, got "1ms"',
    );
    expect(parseDuration("interval", "0.1s", 60_000, 100)).toBe(100);
  });
});
