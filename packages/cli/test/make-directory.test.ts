// A directory a flag names is made with its parents, or refused in one line
// naming it: never the spin of node's recursive mkdir under /proc.
import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CliError } from "../src/cli-error.js";
import { makeDirectory } from "../src/make-directory.js";

describe("makeDirectory", () => {
  it("makes the directory and its missing parents, and takes one that exists", () => {
    const root = mkdtempSync(join(tmpdir(), "binring-mkdir-"));
    const deep = join(root, "a", "b", "c");
    makeDirectory(deep);
    makeDirectory(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
  });

  it("refuses where mkdir cannot make it, naming the path, at once", () => {
    expect(() => makeDirectory("/proc/binring-test/certs")).toThrow(CliError);
    expect(() => makeDirectory("/proc/binring-test/certs")).toThrow(
      "cannot create the directory /proc/binring-test/certs: ENOENT",
    );
  });

  it("refuses a path under a file", () => {
    const file = join(mkdtempSync(join(tmpdir(), "binring-mkdir-")), "file");
    writeFileSync(file, "");
    expect(() => makeDirectory(join(file, "dir"))).toThrow(/ENOTDIR/);
    expect(() => makeDirectory(file)).toThrow(`${file} exists and is not a directory`);
  });
});
