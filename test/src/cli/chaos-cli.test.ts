// `binring chaos` input: a bad flag or a misplaced sabotage switch is one
// readable line and exit code 2, before any process starts.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli } from "../support/index.js";

it.each([
  [["--local", "--duration", "soon"], /--duration must be a duration like 500ms, 60s or 10m, got "soon"/],
  [["--local", "--fault-every", "0s"], /--fault-every must be a duration/],
  [["--local", "--seed", "4.5"], /--seed must be a non-negative integer, got "4.5"/],
  [["--local", "--backends", "2"], /--backends must be at least 3 \(a bin has three copies\), got 2/],
  [["--backends", "6"], /--backends, --keepers and --dir need --local/],
  [["--config", "/nonexistent/binring.json"], /cannot read cluster file \/nonexistent\/binring.json/],
])("binring chaos %j is refused", async (args, message) => {
  const run = await runCli(["chaos", ...args]);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(message);
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
