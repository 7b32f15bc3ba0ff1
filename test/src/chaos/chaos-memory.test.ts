// `binring chaos --local --store memory`: the same proof on the in-memory
// engine (what a machine without redis-server runs): every kill is of the
// backend alone and it comes back empty, the keepers refill it, and every
// checker passes. The cluster's directory does not exist before the run: with
// no redis-server to create it, the launcher makes it for the cluster file.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { chaosVerdicts, runCli } from "../support/index.js";

it("keeps every acknowledged write on the in-memory store through kills that empty backends", async () => {
  const out = mkdtempSync(join(tmpdir(), "binring-chaos-memory-"));
  const run = await runCli(
    [
      "chaos",
      "--local",
      "--store",
      "memory",
      "--insecure",
      "--duration",
      "25s",
      "--fault-every",
      "3s",
      "--seed",
      "3",
      "--out",
      out,
    ],
    { timeoutMs: 110_000 },
  );
  const verdicts = chaosVerdicts(run.stdout);
  expect(run.code, `binring chaos failed:\n${verdicts}\n${run.stderr}`).toBe(0);
  expect(run.stderr).toMatch(/starting 6 backends on the in-memory store and 3 keepers under /);
  expect(verdicts).toMatch(/lost-writes: PASS/);
  expect(verdicts).toMatch(/linearizability: PASS/);
  const faults = readFileSync(join(out, "history.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.includes('"action":"kill-backend"'));
  expect(faults.length).toBeGreaterThan(0);
  for (const fault of faults) expect(fault).toContain("its in-memory store goes with it, it returns empty");
}, 120_000);
