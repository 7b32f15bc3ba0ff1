// Every source, script or document path the project's docs name in backticks
// is a file of the repository: ARCHITECTURE and HAZARDS cite the file behind
// each rule, and a file moved or renamed must take its citations with it.
// A path may be cited whole or by its tail (`backend/src/x.ts`, `x.ts`).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, test } from "vitest";
import { REPO_ROOT } from "../support/binring-process.js";

const DOCS = ["README.md", "docs/ARCHITECTURE.md", "docs/HAZARDS.md", "deploy/README.md", "bench/README.md"];

/** Names the docs give to files a run writes, not files of the repository. */
const WRITTEN_BY_RUNS = new Set(["summary.md"]);

const CITED = /`([A-Za-z0-9_./-]+\.(?:ts|lua|sh|proto|mjs|json|ya?ml|md))`/g;
const SKIPPED_DIRS = new Set(["node_modules", "dist", ".git", ".binring"]);

function repositoryFiles(dir = REPO_ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED_DIRS.has(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? repositoryFiles(path) : [relative(REPO_ROOT, path)];
  });
}

test("every file the docs cite exists in the repository", () => {
  const files = repositoryFiles();
  const missing: string[] = [];
  for (const doc of DOCS) {
    for (const [, cited] of readFileSync(join(REPO_ROOT, doc), "utf8").matchAll(CITED)) {
      if (WRITTEN_BY_RUNS.has(cited!)) continue;
      if (!files.some((file) => file === cited || file.endsWith(`/${cited}`)))
        missing.push(`${doc}: ${cited}`);
    }
  }
  expect(missing).toEqual([]);
});
