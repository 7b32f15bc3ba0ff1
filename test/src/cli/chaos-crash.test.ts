// A process that dies without the chaos runner killing it is a bug, not a
// fault inside the model: `binring chaos --local` must fail the run at once,
// naming the process, instead of waiting for a heal that cannot come.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ChildProcess, CLI_MAIN, waitFor } from "../support/index.js";

it("fails the run, naming the process, when a backend exits without being killed", async () => {
  const out = mkdtempSync(join(tmpdir(), "binring-chaos-crash-"));
  // One fault a minute: the only death in this run is the one the test causes.
  const { child: chaos } = await ChildProcess.spawn(
    "chaos",
    process.execPath,
    [
      CLI_MAIN,
      "chaos",
      "--local",
      "--keepers",
      "1",
      "--duration",
      "60s",
      "--fault-every",
      "60s",
      "--seed",
      "1",
      "--out",
      out,
    ],
    { readyLine: /chaos \d+\/60 s/, timeoutMs: 60_000 },
  );
  try {
    const log = join(out, "cluster", "logs", "backend-0.log");
    const pid = Number(/"pid":(\d+)/.exec(readFileSync(log, "utf8"))?.[1]);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, "SIGKILL");
    const exit = await waitFor(
      "binring chaos to exit",
      () => (chaos.running ? undefined : chaos.waitExit()),
      {
        timeoutMs: 20_000,
      },
    );
    expect(exit.code).toBe(1);
    expect(chaos.output()).toMatch(
      new RegExp(`backend-0 \\(pid ${pid}\\) exited with signal SIGKILL without being killed`),
    );
  } finally {
    await chaos.kill("SIGINT");
  }
}, 90_000);
