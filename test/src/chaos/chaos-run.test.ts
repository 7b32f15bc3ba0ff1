// The proof, run by CI: `binring chaos --local` starts a 6-backend cluster,
// each process in its own network namespace, runs 16 clients for 60 s while
// it SIGKILLs backends (with and without their Redis), restarts them, kills
// and pauses keepers when more than one runs, pauses backends, partitions a
// process, cuts the clients from backends, cuts one way between processes and
// slows links, all inside the failure model; then every checker must pass.
// The command exits non-zero when any checker fails, so does this test. The
// cluster and every caller use mutual TLS (chaos --local's default).
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { chaosVerdicts, runCli } from "../support/index.js";
import { CI_BACKENDS, CI_FAULTS, CI_KEEPERS, NETWORK_FAULTS } from "./chaos-ci.js";

it("keeps every acknowledged write and every read linearizable through 60 s of faults", async () => {
  const out = mkdtempSync(join(tmpdir(), "binring-chaos-"));
  const run = await runCli(
    [
      "chaos",
      "--local",
      "--backends",
      String(CI_BACKENDS),
      "--keepers",
      String(CI_KEEPERS),
      "--duration",
      "60s",
      "--fault-every",
      "4s",
      "--faults",
      CI_FAULTS,
      "--seed",
      "1",
      "--out",
      out,
    ],
    { timeoutMs: 170_000 },
  );
  const verdicts = chaosVerdicts(run.stdout);
  expect(run.code, `binring chaos failed:\n${verdicts}\n${run.stderr}`).toBe(0);
  // Over the transport production uses: every process and caller with mutual TLS.
  expect(run.stderr).toMatch(/keepers under .*, each in its own network namespace on .*, with mutual TLS$/m);
  expect(verdicts).toMatch(/lost-writes: PASS/);
  expect(verdicts).toMatch(/linearizability: PASS/);
  const history = readFileSync(join(out, "history.jsonl"), "utf8");
  // The run really broke things: backends were killed and came back, and operations completed meanwhile.
  expect(history).toMatch(/"action":"kill-backend"/);
  expect(history).toMatch(/"action":"restart-backend"/);
  if (CI_KEEPERS > 1) expect(history).toMatch(/"action":"kill-keeper"/);
  // And the network broke: each kind of network fault at least once, and each healed.
  for (const action of NETWORK_FAULTS) expect(history).toContain(`"action":"${action}"`);
  expect(history).toMatch(/"action":"reconnect"/);
  expect(readFileSync(join(out, "summary.md"), "utf8")).toMatch(/^# binring verification: PASS/);
  expect(readFileSync(join(out, "timeline.svg"), "utf8")).toMatch(/<svg/);
  // What each client saw of the backends, to read a failed check against: killed ones went unreachable.
  expect(readFileSync(join(out, "clients.log"), "utf8")).toMatch(
    /"process":\d+.*"msg":"backend unreachable"/,
  );
}, 180_000);
