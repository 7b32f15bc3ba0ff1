// `binring status --watch` as a script sees it (stdout not a terminal): one
// plain block per interval, until Ctrl-C, which is a clean exit.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_MAIN, LocalCluster, runCli, waitFor, waitForSettled } from "../support/index.js";

let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await LocalCluster.start({ backends: 3, keepers: 1 });
  // A backend that misses the keeper's first probe on a loaded machine is filled before it is ready.
  const http = (await cluster.keeperProcesses[0]!.waitForLine(/"http":"([^"]+)"/))[1]!;
  await waitForSettled(http, Object.fromEntries(cluster.addresses.map((address) => [address, "ready"])));
});
afterAll(async () => {
  await cluster.stop();
});

/** `binring status --watch ARGS` with its output collected as it comes. */
function watch(args: string[]): { child: ChildProcessWithoutNullStreams; stdout: () => string } {
  const child = spawn(process.execPath, [CLI_MAIN, "status", "--watch", ...args]);
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  return { child, stdout: () => stdout };
}

function interrupt(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGINT");
  return exited;
}

describe("binring status --watch", () => {
  it("prints a block per interval without redrawing, and exits 0 on SIGINT", async () => {
    const { child, stdout } = watch(["--interval", "300ms", "--config", cluster.configPath]);
    const blocks = () =>
      stdout()
        .split(/^status at /m)
        .slice(1);
    await waitFor("two status blocks", () => blocks().length >= 3 && blocks().slice(0, 2));
    expect(await interrupt(child)).toBe(0);
    expect(stdout()).not.toContain("\x1b[");
    const [first, second] = blocks();
    for (const block of [first!, second!]) {
      expect(block).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z\nkeeper \S+, view epoch \d+\n/);
      for (const backend of cluster.addresses) expect(block).toMatch(new RegExp(`^${backend}\\s+ready`, "m"));
    }
    const at = (block: string) => Date.parse(block.slice(0, block.indexOf("\n")));
    expect(at(second!) - at(first!)).toBeGreaterThanOrEqual(300);
  });

  it("prints one JSON document a line with --json", async () => {
    const { child, stdout } = watch(["--json", "--interval", "200ms", "--config", cluster.configPath]);
    await waitFor("two JSON lines", () => stdout().split("\n").length > 2);
    expect(await interrupt(child)).toBe(0);
    for (const line of stdout().trim().split("\n")) {
      expect(
        JSON.parse(line)
          .backends.map((b: { address: string }) => b.address)
          .sort(),
      ).toEqual([...cluster.addresses].sort());
    }
  });

  it("keeps watching while no keeper answers, saying so in each block", async () => {
    const dir = mkdtempSync(join(tmpdir(), "binring-watch-"));
    const config = join(dir, "binring.json");
    // Nor does a backend: the cluster's own would name its keepers (keeper-lookup.ts).
    writeFileSync(config, JSON.stringify({ backends: ["127.0.0.1:2"], keepers: ["127.0.0.1:1"] }));
    const { child, stdout } = watch(["--interval", "200ms", "--config", config]);
    await waitFor("two blocks", () => stdout().match(/no keeper answered \(127\.0\.0\.1:1: /g)?.length === 2);
    expect(await interrupt(child)).toBe(0);
  });

  it("refuses a bad interval with one line naming it", async () => {
    const result = await runCli(["status", "--watch", "--interval", "soon", "--config", cluster.configPath]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('--interval must be a duration like 500ms, 60s or 10m, got "soon"\n');
  });
});
