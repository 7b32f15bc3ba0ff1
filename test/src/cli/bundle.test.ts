// `packages/cli/dist/main.js` runs the command from its bundle
// (scripts/bundle-cli.mjs): every module it needs is inside, and each still
// finds the files it reads beside it (the wire contract's .proto files, the
// backend's Lua scripts) from a copy of the tree with nothing else in it: no
// node_modules and no other package's compiled files. A cluster of Redis
// backends and a keeper runs from that copy, and its own `set` and `get`
// commands write and read through it.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { afterAll, expect, it } from "vitest";
import { LocalCluster, REPO_ROOT, waitForSettled } from "../support/index.js";

const copy = mkdtempSync(join(tmpdir(), "binring-bundle-"));
let cluster: LocalCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
  rmSync(copy, { recursive: true, force: true });
});

it("runs a cluster and its commands from a copy of the bundle, its .proto and .lua files, and nothing else", async () => {
  for (const files of ["packages/cli/dist", "packages/core/proto", "packages/backend/lua"]) {
    cpSync(join(REPO_ROOT, files), join(copy, files), { recursive: true });
  }
  expect(existsSync(join(copy, "node_modules"))).toBe(false);
  const main = join(copy, "packages/cli/dist/main.js");
  cluster = await LocalCluster.start({ cli: main, backends: 3, keepers: 1 });
  await waitForSettled(
    cluster.keeperHttp[0]!,
    Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])),
  );

  const binring = (...args: string[]) =>
    promisify(execFile)(process.execPath, [main, ...args, "--config", cluster!.configPath], { cwd: copy });
  await binring("set", "--bin", "alice", "greeting", "hello");
  expect((await binring("get", "--bin", "alice", "greeting")).stdout).toBe("hello\n");
  // Stored through the backend's apply script, on every replica's Redis.
  for (const member of cluster.members) {
    const redis = new Redis(member.redis.url);
    try {
      expect(await redis.exists("s:5:alicegreeting"), member.address).toBe(1);
    } finally {
      redis.disconnect();
    }
  }
});
