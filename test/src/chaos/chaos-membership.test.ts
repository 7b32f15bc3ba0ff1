// The proof with membership faults: `binring chaos --local --faults
// process,network,membership` adds backends to the ring and removes them
// (stopping each once it has left) while it kills and pauses processes, breaks
// the network and 16 clients run; every checker must pass. The run uses mutual
// TLS, so the membership changes go through the keepers' admin service with
// the admin certificate. Every backend, those added during the run included,
// runs in a network namespace of its own, so links to an added backend are cut
// and slowed like any other's.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { expectChaosPassed, runCli } from "../support/index.js";

it("keeps every acknowledged write and every read linearizable while backends join and leave among process and network faults", async () => {
  const out = mkdtempSync(join(tmpdir(), "binring-chaos-membership-"));
  // Seed 3 adds, removes and retires a backend, kills one and breaks the network within the 45 s.
  const run = await runCli(
    [
      "chaos",
      "--local",
      "--backends",
      "5",
      "--keepers",
      "3",
      "--duration",
      "45s",
      "--fault-every",
      "3s",
      "--faults",
      "process,network,membership",
      "--seed",
      "3",
      "--out",
      out,
    ],
    { timeoutMs: 170_000 },
  );
  expectChaosPassed(run);
  expect(run.stderr).toMatch(/each in its own network namespace/);
  const history = readFileSync(join(out, "history.jsonl"), "utf8");
  expect(history).toMatch(/"action":"add-backend"/);
  expect(history).toMatch(/"action":"remove-backend"/);
  expect(history).toMatch(/"action":"retire-backend"/);
  expect(history).toMatch(/"action":"(kill-backend|kill-keeper|pause)"/);
  expect(history).toMatch(/"action":"(partition|cut-clients|cut-one-way|slow-link)"/);
  // The added backend's address is on the run's network, not loopback.
  const added = history.split("\n").find((line) => line.includes('"action":"add-backend"'))!;
  expect(JSON.parse(added).detail).toMatch(/^10\.\d+\.\d+\.\d+:\d+ joins the ring$/);
}, 180_000);
