// The harness can see: with the test-only sabotage that acknowledges a write
// once the bin's primary alone has it, the same chaos run must fail — a
// primary's death leaves reads falling through to backups that never got the
// write, and a wiped primary loses it for good.
//
// Only a fault on a bin's primary shows the sabotage, and placement follows
// the backends' (free, so random) ports: with the default 4 bins a backend is
// no bin's primary with probability (5/6)^4 ≈ 48 %, so a short run whose few
// faults all hit backups would pass. Over 32 bins that is (5/6)^32 ≈ 0.3 %,
// so seed 2's first fault (a kill, 3 s in) already fails the run, and 10 s
// leaves room for a second.
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
      "--bins",
      "32",
      "--duration",
      "10s",
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
