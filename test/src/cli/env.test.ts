// Configuration precedence of every `binring` command: flags beat BINRING_*
// variables, which beat the cluster file, which beats the defaults; a bad
// value from anywhere stops the process with one line naming where it came from.
import { mkdtempSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChildProcess, CLI_MAIN, freePort, runCli } from "../support/index.js";

async function failsWith(args: string[], env: Record<string, string>, message: RegExp): Promise<void> {
  const result = await runCli(args, { env });
  expect(result.code).toBe(2);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).toMatch(message);
}

describe("BINRING_* environment", () => {
  it("names the variable a bad value came from", async () => {
    await failsWith(
      ["backend", "--store", "memory"],
      { BINRING_LISTEN: "nowhere" },
      /^BINRING_LISTEN \(--listen\) must be HOST:PORT, got "nowhere"/,
    );
    await failsWith(["backend"], { BINRING_STORE: "disk" }, /got BINRING_STORE \(--store\) "disk"/);
    await failsWith(
      ["backend", "--store", "memory"],
      { BINRING_READY: "yes" },
      /^BINRING_READY must be true, false, 1 or 0, got "yes"/,
    );
    await failsWith(
      ["backend", "--store", "memory"],
      { BINRING_MAX_KEY_BYTES: "-1" },
      /^BINRING_MAX_KEY_BYTES \(--max-key-bytes\) must be a positive integer/,
    );
  });

  it("is overridden by a flag, and stands in for one", async () => {
    const port = await freePort();
    const { child } = await ChildProcess.spawn(
      "backend",
      process.execPath,
      [CLI_MAIN, "backend", "--listen", `127.0.0.1:${port}`],
      { env: { BINRING_LISTEN: "nowhere", BINRING_STORE: "memory" }, readyLine: /"msg":"backend listening"/ },
    );
    expect(child.output()).toContain(`"address":"127.0.0.1:${port}"`);
    await child.kill("SIGTERM");
  });

  it("overrides the cluster file: a keeper binds BINRING_LISTEN, not its entry in the file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "binring-env-"));
    const config = join(dir, "binring.json");
    writeFileSync(
      config,
      JSON.stringify({ backends: ["127.0.0.1:1"], keepers: ["keeper-0.keeper.invalid:7600"] }),
    );
    const port = await freePort();
    const { child } = await ChildProcess.spawn(
      "keeper",
      process.execPath,
      [CLI_MAIN, "keeper", "--index", "0"],
      {
        env: { BINRING_CONFIG: config, BINRING_LISTEN: `127.0.0.1:${port}`, BINRING_HTTP: "127.0.0.1:0" },
        readyLine: /"msg":"keeper listening"/,
      },
    );
    expect(child.output()).toContain(`"address":"127.0.0.1:${port}"`);
    await child.kill("SIGTERM");
    await failsWith(
      ["keeper", "--config", config],
      { BINRING_INDEX: "3" },
      /^BINRING_INDEX \(--index\) must be between 0 and 0/,
    );
  });

  it("takes a keeper's index from a StatefulSet hostname only, and not alongside --index", async () => {
    const dir = mkdtempSync(join(tmpdir(), "binring-env-"));
    const config = join(dir, "binring.json");
    writeFileSync(config, JSON.stringify({ backends: ["127.0.0.1:1"], keepers: ["127.0.0.1:0"] }));
    if (!/-\d+$/.test(hostname())) {
      await failsWith(["keeper", "--config", config, "--index-from-hostname"], {}, /does not end in -N/);
    }
    await failsWith(
      ["keeper", "--config", config, "--index-from-hostname"],
      { BINRING_INDEX: "0" },
      /^give BINRING_INDEX \(--index\) or --index-from-hostname, not both/,
    );
  });
});

describe("binring cluster-file", () => {
  it("generates per-zone backends and refuses templates that would collide", async () => {
    const result = await runCli([
      "cluster-file",
      "--backends",
      "2",
      "--keepers",
      "1",
      "--zones",
      "zone-a,zone-b",
      "--backend-address",
      "backend-{zone}-{i}.backend:7000",
    ]);
    expect(JSON.parse(result.stdout)).toEqual({
      backends: [
        "backend-zone-a-0.backend:7000",
        "backend-zone-a-1.backend:7000",
        "backend-zone-b-0.backend:7000",
        "backend-zone-b-1.backend:7000",
      ],
      keepers: ["keeper-0.keeper:7600"],
      zones: {
        "backend-zone-a-0.backend:7000": "zone-a",
        "backend-zone-a-1.backend:7000": "zone-a",
        "backend-zone-b-0.backend:7000": "zone-b",
        "backend-zone-b-1.backend:7000": "zone-b",
      },
    });
    await failsWith(["cluster-file", "--backends", "2", "--zones", "a,b"], {}, /must contain \{zone\}/);
    await failsWith(
      ["cluster-file", "--backends", "2", "--backend-address", "db:7000"],
      {},
      /must contain \{i\}/,
    );
  });
});
