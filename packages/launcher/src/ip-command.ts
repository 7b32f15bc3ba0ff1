// Runs iproute2's `ip` and `tc` for a cluster network: one command, or many
// at once as a batch on stdin (one process for many changes). A failure
// rejects with the command line and what the tool printed.
import { execFile, execFileSync } from "node:child_process";

export type Tool = "ip" | "tc";

/** Runs `tool args`, or `tool args -batch -` with `batch` as its lines; resolves with its stdout. */
export function iproute(tool: Tool, args: readonly string[], batch?: readonly string[]): Promise<string> {
  const argv = batch ? [...args, "-batch", "-"] : [...args];
  return new Promise((resolve, reject) => {
    const child = execFile(tool, argv, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const lines = batch ? ` (batch: ${batch.join("; ")})` : "";
      reject(new Error(`${tool} ${argv.join(" ")} failed${lines}: ${stderr.trim() || error.message}`));
    });
    // A tool that fails early stops reading: its exit status tells, not the broken pipe.
    child.stdin?.on("error", () => {});
    if (batch) child.stdin?.end(`${batch.join("\n")}\n`);
    else child.stdin?.end();
  });
}

/** The same, blocking, for an exit handler, where nothing asynchronous runs any more; errors are ignored. */
export function iprouteSync(tool: Tool, args: readonly string[], batch: readonly string[]): void {
  try {
    execFileSync(tool, [...args, "-batch", "-"], {
      input: `${batch.join("\n")}\n`,
      stdio: ["pipe", "ignore", "ignore"],
    });
  } catch {
    // Best effort: the next run on the same directory removes whatever is left.
  }
}
