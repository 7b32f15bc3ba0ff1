// The harness can see: with the test-only sabotage that acknowledges a write
// once the bin's primary alone has it, the same chaos run must fail — a
// primary's death leaves reads falling through to backups that never got the
// write, and a wiped primary loses it for good.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli } from "../support/index.js";
import { CI_BACKENDS } from "./chaos-ci.js";

it("fails the chaos run when writes are acknowledged after the primary only", async () => {
  const out = mkdtempSync(join(tmpdir(), "binring-sabotage-"));
  const run = await runCli(
    [
      "chaos",
      "--local",
      "--backends",
      String(CI_BACKENDS),
      // One keeper: every fault is then a backend fault, which is what the sabotage shows under.
      "--keepers",
      "1",
      "--duration",
      "40s",
      "--fault-every",
      "3s",
      "--seed",
      "2",
      "--out",
      out,
    ],
    { timeoutMs: 150_000, env: { BINRING_SABOTAGE: "ack-after-primary" } },
  );
  expect(run.code, run.stderr).toBe(1);
  expect(run.stdout).toMatch(/: FAIL — /);
  expect(readFileSync(join(out, "summary.md"), "utf8")).toMatch(/^# binring verification: FAIL/);
  expect(readFileSync(join(out, "history.jsonl"), "utf8")).toMatch(/"sabotage":"ack-after-primary"/);
}, 160_000);
