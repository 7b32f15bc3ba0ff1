// deploy/Dockerfile, read statically (no Docker engine here): multi-stage on
// Node 20 slim, production dependencies only, non-root, tini as PID 1 in
// front of the binring CLI, and every file the runtime reads copied in.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/index.js";

interface Stage {
  from: string;
  name: string;
  lines: string[];
}

const text = readFileSync(join(REPO_ROOT, "deploy/Dockerfile"), "utf8");
const instructions = text
  .replace(/\\\n\s*/g, " ")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line !== "" && !line.startsWith("#"));
const stages: Stage[] = [];
for (const line of instructions) {
  const from = /^FROM (\S+) AS (\S+)$/i.exec(line);
  if (from) stages.push({ from: from[1]!, name: from[2]!, lines: [] });
  else stages[stages.length - 1]!.lines.push(line);
}
const runtime = stages[stages.length - 1]!;
const workspaces = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).workspaces as string[];

describe("deploy/Dockerfile", () => {
  it("builds in named stages on Node 20 slim and installs only production dependencies at the end", () => {
    expect(stages.map((s) => s.name)).toEqual(["build", "deps", "runtime"]);
    for (const stage of stages) expect(stage.from).toMatch(/^node:20-[a-z]+-slim$/);
    expect(stages[1]!.lines).toContain("RUN npm ci --omit=dev --workspace @binring/cli --no-audit --no-fund");
    expect(runtime.lines.some((line) => /npm (ci|install)/.test(line))).toBe(false);
  });

  it("copies every workspace's package.json before npm ci, from paths that exist", () => {
    for (const stage of stages.slice(0, 2)) {
      const copied = stage.lines.filter((line) => line.startsWith("COPY")).join("\n");
      for (const workspace of workspaces) expect(copied).toContain(`${workspace}/package.json`);
    }
    for (const line of stages[0]!.lines.filter((l) => l.startsWith("COPY"))) {
      for (const source of line.split(" ").slice(1, -1))
        expect(existsSync(join(REPO_ROOT, source)), source).toBe(true);
    }
  });

  it("runs as a non-root user, with tini as PID 1 in front of the binring CLI", () => {
    const user = runtime.lines.filter((line) => line.startsWith("USER "));
    expect(user).toHaveLength(1);
    expect(user[0]).toMatch(/^USER [1-9]\d*(:[1-9]\d*)?$/);
    expect(runtime.lines.some((line) => line.includes("apt-get install") && line.includes("tini"))).toBe(
      true,
    );
    const entrypoint = runtime.lines.find((line) => line.startsWith("ENTRYPOINT "))!;
    expect(JSON.parse(entrypoint.slice("ENTRYPOINT ".length))).toEqual([
      "/usr/bin/tini",
      "--",
      "node",
      "/app/packages/cli/dist/main.js",
    ]);
    // After USER, nothing may need root.
    expect(runtime.lines.slice(runtime.lines.indexOf(user[0]!)).some((line) => line.startsWith("RUN"))).toBe(
      false,
    );
  });

  it("copies what the CLI reads at run time: every package's dist, the proto files, the Lua scripts", () => {
    const copied = runtime.lines.filter((line) => line.startsWith("COPY")).join("\n");
    for (const workspace of workspaces.filter((w) => w.startsWith("packages/"))) {
      expect(copied).toContain(`/src/${workspace}/dist/ ${workspace}/dist/`);
    }
    expect(copied).toContain("/src/packages/core/proto/ packages/core/proto/");
    expect(copied).toContain("/src/packages/backend/lua/ packages/backend/lua/");
    const ignored = readFileSync(join(REPO_ROOT, ".dockerignore"), "utf8").split("\n");
    expect(ignored).toEqual(expect.arrayContaining(["**/node_modules", "**/dist"]));
  });
});
