// A binring process stops on SIGTERM even when whatever read its stdout has
// gone (a closed pipe, a log shipper that died): its logger must not retry a
// write to a broken pipe for ever at exit.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { CLI_MAIN, waitFor } from "../support/index.js";

/** Whether process `pid` handles SIGTERM itself yet (Linux: SigCgt in /proc/PID/status). */
function catchesSigterm(pid: number): boolean {
  const caught = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return caught !== undefined && (BigInt(`0x${caught}`) & (1n << 14n)) !== 0n;
}

it("a backend whose stdout reader has gone exits on SIGTERM", { timeout: 20_000 }, async () => {
  const child = spawn(
    process.execPath,
    [CLI_MAIN, "backend", "--store", "memory", "--listen", "127.0.0.1:0"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.setEncoding("utf8");
  await new Promise<void>((resolve) => {
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      if (output.includes('"msg":"backend listening"')) resolve();
    });
  });
  await waitFor("the backend to handle SIGTERM", () => catchesSigterm(child.pid!));
  // The reader goes: the next log line ("shutting down") meets a broken pipe.
  child.stdout.destroy();
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const stopped = await Promise.race([
    exited.then(([code]) => code as number | null),
    new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 10_000)),
  ]);
  if (stopped === "still running") child.kill("SIGKILL");
  expect(stopped).toBe(0);
});
