// Creates a directory a flag names, with its missing parents, or refuses in
// one line. Node's own mkdirSync(path, { recursive: true }) spins for ever
// where mkdir answers ENOENT under a parent that exists (anywhere in /proc),
// so the levels are made one at a time and the first refusal is the answer.
import { existsSync, mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CliError } from "./cli-error.js";

export function makeDirectory(path: string): void {
  const missing: string[] = [];
  for (let at = resolve(path); !existsSync(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  try {
    for (const directory of missing) makeOne(directory);
    if (!statSync(path).isDirectory()) throw new Error(`${path} exists and is not a directory`);
  } catch (error) {
    throw new CliError(`cannot create the directory ${path}: ${(error as Error).message}`);
  }
}

/** One level; made meanwhile by another process is fine. */
function makeOne(directory: string): void {
  try {
    mkdirSync(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST" || !statSync(directory).isDirectory()) throw error;
  }
}
