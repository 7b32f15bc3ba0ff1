// `binring chaos` input: a bad flag or a misplaced sabotage switch is one
// readable line and exit code 2, before any process starts.
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { CLI_MAIN, runCli } from "../support/index.js";

it.each([
  [["--local", "--duration", "soon"], /--duration must be a duration like 500ms, 60s or 10m, got "soon"/],
  [["--local", "--fault-every", "0s"], /--fault-every must be a duration/],
  [["--local", "--seed", "4.5"], /--seed must be a non-negative integer, got "4.5"/],
  [["--local", "--backends", "2"], /--backends must be at least 3 \(a bin has three copies\), got 2/],
  [["--backends", "6"], /--backends, --keepers and --dir need --local/],
  [
    ["--local", "--faults", "process,netwrok"],
    /--faults must be a comma-separated list of process, network, keeper-partition, membership, got "netwrok" in "process,netwrok"/,
  ],
  [["--faults", "network"], /--faults needs --local/],
  [
    ["--local", "--keepers", "1", "--faults", "keeper-partition"],
    /--faults keeper-partition needs at least 2 keepers, got 1/,
  ],
  [["--config", "/nonexistent/binring.json"], /cannot read cluster file \/nonexistent\/binring.json/],
  [["--local", "--store", "disk"], /^binring chaos: --store must be redis or memory, got "disk"$/m],
  [["--store", "memory"], /^binring chaos: --store needs --local$/m],
])("binring chaos %j is refused", async (args, message) => {
  const run = await runCli(["chaos", ...args]);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(message);
});

it("refuses --store redis where no redis-server is installed, naming the way out", async () => {
  const emptyPath = mkdtempSync(join(tmpdir(), "binring-no-redis-"));
  const run = await runCli(["chaos", "--local", "--store", "redis"], { env: { PATH: emptyPath } });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(
    /^binring chaos: --store redis needs redis-server on PATH \(apt-get install -y redis-server\), or --store memory$/m,
  );
});

it("refuses the sabotage switch against a cluster chaos does not own", async () => {
  const run = await runCli(["chaos", "--config", "binring.json"], {
    env: { BINRING_SABOTAGE: "ack-after-primary" },
  });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/BINRING_SABOTAGE is test-only and needs --local/);
});

it("refuses an unknown sabotage by name", async () => {
  const run = await runCli(["chaos", "--local"], { env: { BINRING_SABOTAGE: "drop-everything" } });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(
    /unsafeSabotage must be one of ack-after-primary \(test only\), got "drop-everything"/,
  );
});

it("refuses to start a cluster in a --dir that holds an earlier run's data", async () => {
  const dir = mkdtempSync(join(tmpdir(), "binring-chaos-dir-"));
  writeFileSync(join(dir, "appendonly.aof"), "left by an earlier run");
  const run = await runCli(["chaos", "--local", "--dir", dir, "--duration", "1s"]);
  expect(run.code).toBe(2);
  expect(run.stderr.trim()).toBe(
    `binring chaos: --dir ${dir} is not empty: chaos starts a fresh cluster; remove it or name another`,
  );
});

it("refuses network faults without root in one line: namespaces need it", async (context) => {
  const out = mkdtempSync(join(tmpdir(), "binring-chaos-nobody-"));
  chmodSync(out, 0o777);
  // As nobody (uid 65534): the check comes before any process starts.
  const run = await new Promise<{ code: unknown; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [CLI_MAIN, "chaos", "--local", "--faults", "process,network", "--out", out],
      { uid: 65534, gid: 65534, timeout: 30_000 },
      (error, _stdout, stderr) => resolve({ code: error?.code, stderr }),
    );
  });
  // A checkout under a directory only root may enter (mktemp -d makes them 0700): nobody cannot load binring.
  if (run.code !== 2 && /EACCES|permission denied|Cannot find module/i.test(run.stderr)) {
    context.skip("this checkout is not readable by uid 65534");
  }
  expect(run.code).toBe(2);
  expect(run.stderr.trim()).toBe(
    "binring chaos: --faults process,network: network namespaces need root (ip netns add); run as root, or without network faults",
  );
});
