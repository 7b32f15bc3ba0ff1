// Every subcommand explains itself: `binring NAME --help` exits 0 and names
// every flag the parser accepts, with a usage line and an example. The
// commands are enumerated from the declaration main.ts dispatches on, so a
// new subcommand is covered without touching this file. The help is asked of
// dispatch() in process, the function main.ts acts on; two real processes
// prove main.ts prints what it answers, and turns a refusal into one line.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { asksForHelp, formatDuration, parseDuration } from "../src/args.js";
import { CliError } from "../src/cli-error.js";
import { defineCommand } from "../src/command.js";
import { terminalFrame } from "../src/commands/status.js";
import { COMMANDS } from "../src/commands.js";
import { dispatch } from "../src/dispatch.js";
import { renderCommandHelp, renderOverview } from "../src/help.js";

const CLI_MAIN = fileURLToPath(new URL("../dist/main.js", import.meta.url));

function binring(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_MAIN, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/** What `binring ARGV` prints on stdout, when dispatch() answers with help. */
async function helpFor(argv: string[]): Promise<string> {
  const next = await dispatch(argv);
  if (!("help" in next)) throw new Error(`binring ${argv.join(" ")} runs ${next.command.name}, not help`);
  return next.help;
}

describe.each(COMMANDS.map((entry) => [entry.name, entry] as const))("binring %s", (name, entry) => {
  it.each(["--help", "-h"])("%s prints usage, every flag and an example", async (flag) => {
    const command = await entry.load();
    const help = await helpFor([name, flag]);
    expect(help).toMatch(new RegExp(`^usage: binring ${name}\\b`));
    for (const declared of Object.keys(command.flags)) expect(help).toContain(`--${declared}`);
    expect(help).toMatch(new RegExp(`^example:\\n {2}binring ${name}\\b.*$`, "m"));
  });

  it("mentions only flags it declares, in its synopsis, summary and example", async () => {
    const command = await entry.load();
    expect(command.name).toBe(name);
    const mentioned =
      `${command.synopsis} ${command.summary} ${command.example}`.match(/--[a-z][a-z-]*/g) ?? [];
    for (const flag of mentioned) expect(Object.keys(command.flags)).toContain(flag.slice(2));
  });
});

describe("binring --help", () => {
  it("lists every subcommand, one line each, whichever way it is asked", async () => {
    for (const args of [["--help"], ["-h"], ["help"], []]) {
      const help = await helpFor(args);
      for (const command of COMMANDS) {
        expect(help).toMatch(new RegExp(`^ {2}binring ${command.name} +\\S`, "m"));
      }
    }
  });

  it("takes `binring help NAME` for `binring NAME --help`, and refuses an unknown name", async () => {
    expect(await helpFor(["help", "set"])).toBe(await helpFor(["set", "--help"]));
    await expect(dispatch(["help", "frobnicate"])).rejects.toThrow(
      expect.objectContaining({
        constructor: CliError,
        message: 'binring: unknown command "frobnicate"; run "binring help"',
        exitCode: 2,
      }),
    );
  });

  it("wins over other flags and bad values, but not after --", async () => {
    expect(await helpFor(["set", "--bin", "a", "--colour", "red", "--help"])).toBe(
      await helpFor(["set", "--help"]),
    );
    const afterDashes = ["set", "--config", "/nonexistent.json", "--bin", "a", "--", "k", "--help"];
    const positional = await dispatch(afterDashes);
    if ("help" in positional) throw new Error("--help after -- was taken for help");
    await expect(positional.command.run(positional.args)).rejects.toThrow(
      /cannot read cluster file \/nonexistent.json/,
    );
  });
});

describe("the binring process", () => {
  it("prints the help on stdout, exit 0, nothing on stderr", async () => {
    const result = await binring(["set", "-h"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(await helpFor(["set", "-h"]));
  });

  it("refuses an unknown command with one line on stderr, exit 2", async () => {
    const unknown = await binring(["help", "frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toBe('binring: unknown command "frobnicate"; run "binring help"\n');
  });
});

describe("help rendering", () => {
  const spec = defineCommand({
    name: "demo",
    summary: "does a demo",
    synopsis: "--name N [options] FILE",
    flags: {
      name: { type: "string", value: "N", description: "who" },
      "wait-for": { type: "string", value: "DURATION", default: "2s", description: "how long" },
      near: { type: "string", derivedDefault: "the first one", description: "which" },
      quiet: { type: "boolean", description: "say less" },
    },
    example: "binring demo --name x file.txt",
  });

  it("aligns the flags and shows each default", () => {
    expect(renderCommandHelp(spec)).toBe(
      [
        "usage: binring demo --name N [options] FILE",
        "",
        "does a demo",
        "",
        "options:",
        "  --name N             who",
        "  --wait-for DURATION  how long (default: 2s)",
        "  --near VALUE         which (default: the first one)",
        "  --quiet              say less",
        "  -h, --help           print this help and exit",
        "",
        "Every option can also be set as BINRING_ plus its name (--name is BINRING_NAME).",
        "",
        "example:",
        "  binring demo --name x file.txt",
        "",
      ].join("\n"),
    );
  });

  it("lists commands with their summaries", () => {
    expect(renderOverview([spec, { ...spec, name: "longer-name" }])).toContain(
      "  binring demo         does a demo\n  binring longer-name  does a demo\n",
    );
  });

  it("finds --help and -h only before --", () => {
    expect(asksForHelp(["--bin", "a", "-h"])).toBe(true);
    expect(asksForHelp(["--bin=--help", "k"])).toBe(false);
    expect(asksForHelp(["--", "--help"])).toBe(false);
  });

  it("writes defaults as durations parseDuration reads back", () => {
    for (const ms of [86_400_000, 90_000, 2000, 1500, 1]) {
      expect(parseDuration("d", formatDuration(ms))).toBe(ms);
    }
    expect(formatDuration(86_400_000)).toBe("24h");
    expect(formatDuration(1500)).toBe("1500ms");
  });
});

describe("status --watch on a terminal", () => {
  it("clears the screen once, then overwrites each line in place", () => {
    expect(terminalFrame("a\nb", true)).toBe("\x1b[2J\x1b[Ha\x1b[K\nb\x1b[K\n\x1b[J");
    expect(terminalFrame("a", false)).toBe("\x1b[Ha\x1b[K\n\x1b[J");
  });
});
