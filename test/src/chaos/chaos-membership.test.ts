// The proof with membership faults: `binring chaos --local --faults
// process,membership` adds backends to the ring and removes them (stopping
// each once it has left) while it kills and pauses processes and 16 clients
// run; every checker must pass. The run uses mutual TLS, so the membership
// changes go through the keepers' admin service with the admin certificate.
// A second run adds network faults to the membership faults.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { expectChaosPassed, runCli } from "../support/index.js";

/** A chaos run on 5 backends and 3 keepers, a fault every 3 s; its result and history once every checker passed. */
async function membershipChaos(faults: string, duration: string, seed: number) {
  const out = mkdtempSync(join(tmpdir(), "binring-chaos-membership-"));
  const run = await runCli(
    [
      "chaos",
      "--local",
      "--backends",
      "5",
      "--keepers",
      "3",
      "--duration",
      duration,
      "--fault-every",
      "3s",
      "--faults",
      faults,
      "--seed",
      String(seed),
      "--out",
      out,
    ],
    { timeoutMs: 170_000 },
  );
  expectChaosPassed(run);
  return { run, history: readFileSync(join(out, "history.jsonl"), "utf8") };
}

it("keeps every acknowledged write and every read linearizable while backends join and leave", async () => {
  const { history } = await membershipChaos("process,membership", "25s", 2);
  expect(history).toMatch(/"action":"add-backend"/);
  expect(history).toMatch(/"action":"remove-backend"/);
  expect(history).toMatch(/"action":"retire-backend"/);
  // Beside them, process faults: backends and keepers killed or paused.
  expect(history).toMatch(/"action":"(kill-backend|kill-keeper|pause)"/);
}, 180_000);

// With network faults too: every backend, those added during the run included, runs in a network
// namespace of its own, so links to an added backend are cut and slowed like any other's. Longer than
// the first run: the schedule injects each kind of network fault once (5 × 3 s) before any membership fault.
it("keeps every acknowledged write while backends join and leave and the network breaks", async () => {
  const { run, history } = await membershipChaos("network,membership", "35s", 3);
  expect(run.stderr).toMatch(/each in its own network namespace/);
  expect(history).toMatch(/"action":"add-backend"/);
  expect(history).toMatch(/"action":"remove-backend"/);
  expect(history).toMatch(/"action":"(partition|cut-clients|cut-one-way|slow-link)"/);
  // The added backend's address is on the run's network, not loopback.
  const added = history.split("\n").find((line) => line.includes('"action":"add-backend"'))!;
  expect(JSON.parse(added).detail).toMatch(/^10\.\d+\.\d+\.\d+:\d+ joins the ring$/);
}, 180_000);
