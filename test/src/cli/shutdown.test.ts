// A binring process stops on SIGTERM even when whatever read its stdout has
// gone (a closed pipe, a log shipper that died): its logger must not retry a
// write to a broken pipe for ever at exit. The backend handles SIGTERM from
// before it logs "backend listening", so that line is the moment to signal.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { expect, it } from "vitest";
import { CLI_MAIN } from "../support/index.js";

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
  // The reader goes: the next log line ("shutting down") meets a broken pipe.
  child.stdout.destroy();
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const stopped = await Promise.race([
    exited.then(([code, signal]) => code ?? `killed by ${signal}`),
    new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 10_000)),
  ]);
  if (stopped === "still running") child.kill("SIGKILL");
  expect(stopped).toBe(0);
});
