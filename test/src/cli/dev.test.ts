// `binring dev --appendfsync`: every backend's Redis syncs its append-only file
// as asked, and every backend holds it there (it sets it again when it
// reconnects), until Ctrl-C stops them all. And what dev writes where it runs
// never trips git or lint, so the README's two commands work in either order.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import { ChildProcess, CLI_MAIN, REPO_ROOT, runCli, waitFor } from "../support/index.js";

let dev: ChildProcess | undefined;
let dir: string | undefined;
afterEach(async () => {
  // SIGTERM, as Ctrl-C: dev stops what it started. A SIGKILL (after a failed test) would leave
  // its cluster running, beside every later test.
  await dev?.kill("SIGTERM");
  dev = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function persistence(redis: Redis): Promise<{ appendonly: string; appendfsync: string }> {
  const [, appendonly] = (await redis.config("GET", "appendonly")) as string[];
  const [, appendfsync] = (await redis.config("GET", "appendfsync")) as string[];
  return { appendonly: appendonly!, appendfsync: appendfsync! };
}

/** Whether anything accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

it("binring dev --appendfsync always starts every Redis with appendfsync always and every backend holding it", {
  timeout: 30_000,
}, async () => {
  dir = mkdtempSync(join(tmpdir(), "binring-dev-"));
  const started = await ChildProcess.spawn(
    "binring dev",
    process.execPath,
    [
      CLI_MAIN,
      "dev",
      "--appendfsync",
      "always",
      "--port-base",
      "0",
      "--keepers",
      "0",
      "--backends",
      "3",
      "--dir",
      dir,
      "--config",
      join(dir, "binring.json"),
    ],
    { readyLine: /^ {2}cluster file: /, timeoutMs: 20_000 },
  );
  dev = started.child;
  const output = dev.output();
  expect(output).toMatch(/^ {2}redis appendfsync: always; every Redis requires the password in /m);
  // One row per backend: name, address, "redis 127.0.0.1:PORT", pid.
  const rows = [...output.matchAll(/^ {2}backend-\d+\s+\S+\s+redis 127\.0\.0\.1:(\d+)\s+(\d+)\s*$/gm)];
  expect(rows, output).toHaveLength(3);
  const redisPorts = rows.map((row) => Number(row[1]));
  for (const [, , pid] of rows) {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    expect(argv.slice(argv.indexOf("--appendfsync"), argv.indexOf("--appendfsync") + 2)).toEqual([
      "--appendfsync",
      "always",
    ]);
  }
  // Every Redis requires the password dev keeps in its directory.
  const password = readFileSync(join(dir, "redis-password"), "utf8").trim();
  const anonymous = new Redis({
    port: redisPorts[0]!,
    host: "127.0.0.1",
    lazyConnect: true,
    maxRetriesPerRequest: 0,
  });
  anonymous.on("error", () => undefined);
  await expect(anonymous.ping()).rejects.toThrow(/NOAUTH/);
  anonymous.disconnect();
  const admins = redisPorts.map(
    (port) => new Redis({ port, host: "127.0.0.1", password, lazyConnect: true }),
  );
  try {
    for (const admin of admins)
      expect(await persistence(admin)).toEqual({ appendonly: "yes", appendfsync: "always" });
    // Relaxed behind the backend's back, then its connection dropped: it reconnects and sets always again.
    const [admin] = admins;
    await admin!.config("SET", "appendfsync", "everysec");
    expect((await persistence(admin!)).appendfsync).toBe("everysec");
    await admin!.client("KILL", "TYPE", "normal");
    await waitFor(
      "backend-0 to set appendfsync always again on reconnecting",
      async () => (await persistence(admin!)).appendfsync === "always",
      { timeoutMs: 10_000, intervalMs: 100 },
    );
  } finally {
    for (const admin of admins) admin.disconnect();
  }
  await dev.kill("SIGTERM");
  expect(await dev.waitExit()).toEqual({ code: 0, signal: null });
  for (const port of redisPorts) expect(await listening(port), `redis on ${port} after Ctrl-C`).toBe(false);
});

it("binring dev refuses an unknown --appendfsync with one line, starting nothing", async () => {
  const result = await runCli(["dev", "--appendfsync", "no", "--port-base", "0"]);
  expect(result.code).toBe(2);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).toMatch(/^--appendfsync must be always or everysec, got "no"$/m);
});

it("binring dev refuses a --port-base whose layout runs past port 65535, with one line, starting nothing", async () => {
  const result = await runCli(["dev", "--port-base", "65000", "--backends", "6"]);
  expect(result.code).toBe(2);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).toContain(
    "--port-base 65000 puts backend-5's Redis on port 66005, past 65535: give at most 64530 with --backends 6",
  );
});

it("binring dev refuses a --dir it cannot create, with one line, starting nothing", async () => {
  const result = await runCli(["dev", "--insecure", "--dir", "/proc/binring-dev", "--port-base", "0"]);
  expect(result.code).not.toBe(0);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).toContain("cannot create the directory /proc/binring-dev: ENOENT");
});

it("binring dev leaves nothing in the directory it runs in that git tracks or lint checks (README: dev, then test)", {
  timeout: 30_000,
}, async () => {
  dir = mkdtempSync(join(tmpdir(), "binring-dev-root-"));
  for (const file of [".gitignore", "biome.json"]) copyFileSync(join(REPO_ROOT, file), join(dir, file));
  execFileSync("git", ["init", "-q", dir]);
  const started = await ChildProcess.spawn(
    "binring dev",
    process.execPath,
    [CLI_MAIN, "dev", "--port-base", "0", "--keepers", "0", "--backends", "3"],
    { readyLine: /^ {2}cluster file: /, timeoutMs: 20_000, cwd: dir },
  );
  dev = started.child;
  await dev.kill("SIGTERM");
  expect(await dev.waitExit()).toEqual({ code: 0, signal: null });
  expect(readdirSync(dir).sort()).toEqual([".binring", ".git", ".gitignore", "binring.json", "biome.json"]);
  const untracked = execFileSync("git", ["-C", dir, "status", "--porcelain", "--untracked-files=all"], {
    encoding: "utf8",
  });
  expect(untracked.trim().split("\n").sort()).toEqual(["?? .gitignore", "?? biome.json"]);
  const lint = spawnSync(join(REPO_ROOT, "node_modules/.bin/biome"), ["check", "."], {
    cwd: dir,
    encoding: "utf8",
  });
  expect(lint.status, lint.stdout + lint.stderr).toBe(0);
});

it.each([
  ["by default, with mutual TLS", []],
  ["with --insecure, in plaintext", ["--insecure"]],
])("binring dev serves the README's commands %s", { timeout: 40_000 }, async (_how, flags) => {
  dir = mkdtempSync(join(tmpdir(), "binring-dev-tls-"));
  const config = join(dir, "binring.json");
  const started = await ChildProcess.spawn(
    "binring dev",
    process.execPath,
    [
      CLI_MAIN,
      "dev",
      "--port-base",
      "0",
      "--keepers",
      "1",
      "--backends",
      "3",
      "--dir",
      dir,
      "--config",
      config,
      ...flags,
    ],
    { readyLine: /^ {2}cluster file: /, timeoutMs: 20_000 },
  );
  dev = started.child;
  const secure = flags.length === 0;
  const written = JSON.parse(readFileSync(config, "utf8")) as { tls?: Record<string, string> };
  expect(written.tls).toEqual(
    secure ? { ca: "certs/ca.pem", cert: "certs/client.pem", key: "certs/client-key.pem" } : undefined,
  );
  await waitFor("binring dev's output to end", () => /^ {2}logs: /m.test(dev!.output()));
  expect(dev.output()).toMatch(
    secure ? /operator commands take --tls-dir .*certs$/m : /no TLS \(--insecure\)/m,
  );
  expect((await runCli(["set", "--config", config, "--bin", "b", "k", "v"])).code).toBe(0);
  expect((await runCli(["get", "--config", config, "--bin", "b", "k"])).stdout.trim()).toBe("v");
  const status = await runCli([
    "status",
    "--config",
    config,
    ...(secure ? ["--tls-dir", join(dir, "certs")] : []),
  ]);
  expect(status.code, status.stderr).toBe(0);
  // Without TLS a plaintext caller is served; with it, refused.
  const plain = join(dir, "plain.json");
  const { tls: _, ...plainConfig } = written;
  writeFileSync(plain, JSON.stringify({ ...plainConfig, callTimeoutMs: 1500 }));
  expect((await runCli(["get", "--config", plain, "--bin", "b", "k"])).code === 0).toBe(!secure);
  // Ctrl-C stops every process dev started (a SIGKILL would leave them running).
  await dev.kill("SIGTERM");
  expect(await dev.waitExit()).toEqual({ code: 0, signal: null });
});

/**
 * A --port-base whose whole layout is free now: backends from it, keepers +500
 * (HTTP +600), backends' HTTP +800, Redis +1000. Above Linux's ephemeral range,
 * where neither outgoing connections nor freePort (which picks below it) go.
 */
async function freePortBase(backends: number, keepers: number): Promise<number> {
  const offsets = [
    ...Array.from({ length: backends }, (_, i) => [i, 800 + i, 1000 + i]).flat(),
    ...Array.from({ length: keepers }, (_, i) => [500 + i, 600 + i]).flat(),
  ];
  for (;;) {
    const base = 61_000 + Math.floor(Math.random() * 3_500);
    const taken = await Promise.all(offsets.map((offset) => listening(base + offset)));
    if (!taken.includes(true)) return base;
  }
}

it("binring dev refuses to start on data a run on other ports left in --dir, in one line; --fresh starts empty", {
  timeout: 60_000,
}, async () => {
  dir = mkdtempSync(join(tmpdir(), "binring-dev-again-"));
  const config = join(dir, "binring.json");
  const flags = ["--insecure", "--port-base", "0", "--keepers", "1", "--backends", "3", "--dir", dir];
  const startDev = async (extra: string[] = []) => {
    const started = await ChildProcess.spawn(
      "binring dev",
      process.execPath,
      [CLI_MAIN, "dev", ...flags, "--config", config, ...extra],
      { readyLine: /^ {2}cluster file: /, timeoutMs: 20_000 },
    );
    dev = started.child;
    await waitFor("binring dev's output to end", () => /^ {2}logs: /m.test(dev!.output()));
  };
  const stopDev = async () => {
    await dev!.kill("SIGTERM");
    expect(await dev!.waitExit()).toEqual({ code: 0, signal: null });
    dev = undefined;
  };
  await startDev();
  expect((await runCli(["set", "--config", config, "--bin", "b", "k", "v"])).code).toBe(0);
  await stopDev();
  // --port-base 0 picks new ports: the keepers would find every backend a stranger and serve nothing.
  const again = await runCli(["dev", ...flags, "--config", config]);
  expect(again.code).toBe(2);
  expect(again.stderr.trim().split("\n")).toHaveLength(1);
  expect(again.stderr).toContain(`${dir} holds the data of a cluster that ran on free ports (--port-base 0)`);
  expect(again.stderr).toContain("add --fresh to delete that data and start empty");
  await startDev(["--fresh"]);
  expect((await runCli(["get", "--config", config, "--bin", "b", "k"])).stdout.trim()).toBe("(nil)");
  expect((await runCli(["set", "--config", config, "--bin", "b", "k", "w"])).code).toBe(0);
  expect((await runCli(["get", "--config", config, "--bin", "b", "k"])).stdout.trim()).toBe("w");
  await stopDev();
});

it("binring dev starts again on its own data when run as before, and names those flags when not", {
  timeout: 60_000,
}, async () => {
  dir = mkdtempSync(join(tmpdir(), "binring-dev-same-"));
  const config = join(dir, "binring.json");
  const portBase = await freePortBase(3, 1);
  const flags = ["--insecure", "--port-base", String(portBase), "--keepers", "1", "--backends", "3"];
  const args = ["dev", ...flags, "--dir", dir, "--config", config];
  for (const value of ["v", "w"]) {
    const started = await ChildProcess.spawn("binring dev", process.execPath, [CLI_MAIN, ...args], {
      readyLine: /^ {2}cluster file: /,
      timeoutMs: 20_000,
    });
    dev = started.child;
    await waitFor("binring dev's output to end", () => /^ {2}logs: /m.test(dev!.output()));
    if (value === "w") {
      // The second run serves what the first one wrote.
      expect((await runCli(["get", "--config", config, "--bin", "b", "k"])).stdout.trim()).toBe("v");
    }
    expect((await runCli(["set", "--config", config, "--bin", "b", "k", value])).code).toBe(0);
    await dev.kill("SIGTERM");
    expect(await dev.waitExit()).toEqual({ code: 0, signal: null });
    dev = undefined;
  }
  const more = await runCli([...args.slice(0, 6), "--backends", "4", "--dir", dir, "--config", config]);
  expect(more.code).toBe(2);
  expect(more.stderr).toContain(`run it with --port-base ${portBase} --backends 3 --keepers 1, add --fresh`);
});
