// The `binring` command as users run it: data commands against a real
// cluster, and one readable line with a non-zero exit for bad input.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalCluster, runCli } from "../support/index.js";

let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await LocalCluster.start({ backends: 3 });
});
afterAll(async () => {
  await cluster.stop();
});

const cli = (...args: string[]) => runCli([...args, "--config", cluster.configPath]);

describe("data commands", () => {
  it("sets, gets, lists, removes and ticks the clock", async () => {
    expect((await cli("set", "--bin", "alice", "greeting", "hello")).stdout).toBe("OK\n");
    expect((await cli("get", "--bin", "alice", "greeting")).stdout).toBe("hello\n");
    expect((await cli("get", "--bin", "alice", "missing")).stdout).toBe("(nil)\n");
    await cli("list-append", "--bin", "alice", "todo", "a");
    await cli("list-append", "--bin", "alice", "todo", "b");
    await cli("list-append", "--bin", "alice", "todo", "a");
    expect((await cli("list-get", "--bin", "alice", "todo")).stdout).toBe("a\nb\na\n");
    expect((await cli("list-remove", "--bin", "alice", "todo", "a")).stdout).toBe("removed 2\n");
    expect(JSON.parse((await cli("list-get", "--bin", "alice", "todo", "--json")).stdout)).toEqual({
      result: ["b"],
    });
    expect((await cli("keys", "--bin", "alice", "--prefix", "gr")).stdout).toBe("greeting\n");
    expect((await cli("list-keys", "--bin", "alice")).stdout).toBe("todo\n");
    expect((await cli("clock", "--bin", "alice", "4000000000")).stdout).toBe("4000000000\n");
    expect(JSON.parse((await cli("clock", "--bin", "alice", "--json")).stdout).result).toBe("4000000001");
    expect((await cli("get", "--bin", "", "greeting")).stdout).toBe("(nil)\n");
  });
});

describe("bad input", () => {
  it.each([
    [["get", "--bin", "alice"], /^usage: binring get --bin NAME \[options\] KEY\n$/],
    [["get", "greeting"], /--bin is required/],
    [
      ["set", "--bin", "a", "k", "v", "--colour", "red"],
      /Unknown option '--colour'; "binring set --help" lists/,
    ],
    [["clock", "--bin", "a", "-5"], /./],
    [["clock", "--bin", "a", "soon"], /AT_LEAST must be a non-negative integer, got "soon"/],
    [["frobnicate"], /unknown command "frobnicate"/],
    [
      ["status", "--interval", "1000h"],
      /--interval must be at most 2147483647ms \(about 24.8 days, the longest a timer waits\), got "1000h"/,
    ],
  ])("binring %j exits non-zero with one line", async (args, message) => {
    const result = await cli(...(args as string[]));
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it("names the bad field of a broken cluster file", async () => {
    const { writeFileSync } = await import("node:fs");
    const path = `${cluster.configPath}.broken.json`;
    writeFileSync(path, JSON.stringify({ backends: ["127.0.0.1:7000", "nohost"] }));
    const result = await runCli(["get", "--bin", "a", "k", "--config", path]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/"backends\[1\]" must be "host:port", got "nohost"/);
    const missing = await runCli(["get", "--bin", "a", "k", "--config", "/nonexistent/binring.json"]);
    expect(missing.stderr).toMatch(/cannot read cluster file \/nonexistent\/binring.json/);
  });

  it("refuses bad backend and keeper flags with one line", async () => {
    const store = await runCli(["backend", "--listen", "127.0.0.1:0", "--store", "bogus"]);
    expect(store.code).toBe(2);
    expect(store.stderr).toMatch(/give --redis URL or --store memory \(got --store "bogus"\)/);
    const noStore = await runCli(["backend", "--listen", "127.0.0.1:0"]);
    expect(noStore.code).toBe(2);
    expect(noStore.stderr.trim()).toBe("binring backend: give --redis URL or --store memory");
    const noUrl = await runCli(["backend", "--listen", "127.0.0.1:0", "--store", "redis"]);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr.trim()).toBe("--store redis needs --redis URL");
    const listen = await runCli(["backend", "--listen", "nowhere", "--store", "memory"]);
    expect(listen.stderr).toMatch(/--listen must be HOST:PORT, got "nowhere"/);
    const noKeepers = await runCli(["keeper", "--config", cluster.configPath, "--index", "0"]);
    expect(noKeepers.stderr).toMatch(/lists no keepers/);
    const { writeFileSync } = await import("node:fs");
    const withKeeper = `${cluster.configPath}.keeper.json`;
    writeFileSync(withKeeper, JSON.stringify({ backends: cluster.addresses, keepers: ["127.0.0.1:0"] }));
    const index = await runCli(["keeper", "--config", withKeeper, "--index", "7"]);
    expect(index.code).toBe(2);
    expect(index.stderr).toMatch(/--index must be between 0 and 0 .* got "7"/);
    const lease = await runCli(["keeper", "--config", withKeeper, "--index", "0", "--lease-ms", "9000"]);
    expect(lease.code).not.toBe(0);
    expect(lease.stderr.trim().split("\n")).toHaveLength(1);
    expect(lease.stderr).toMatch(
      /leaseMs \(9000\) must be below missesToDead × heartbeatIntervalMs \(3000\)/,
    );
    const timer = await runCli([
      "keeper",
      "--config",
      withKeeper,
      "--index",
      "0",
      "--clock-sync-ms",
      "4294967296",
    ]);
    expect(timer.code).not.toBe(0);
    expect(timer.stderr.trim().split("\n")).toHaveLength(1);
    expect(timer.stderr).toMatch(
      /clockSyncIntervalMs must be at most 2147483647 ms \(the longest a timer waits\)/,
    );
    const batch = await runCli([
      "keeper",
      "--config",
      withKeeper,
      "--index",
      "0",
      "--copy-batch",
      "4294967296",
    ]);
    expect(batch.stderr).toMatch(/copyBatchSize must be at most 10000/);
    const huge = await runCli(["backend", "--store", "memory", "--max-key-bytes", "18446744073709551615"]);
    expect(huge.code).toBe(2);
    expect(huge.stderr).toMatch(
      /--max-key-bytes must be at most 9007199254740991, got "18446744073709551615"/,
    );
  });

  it("refuses a wildcard address as a member's, and a control character in a zone, with one line", async () => {
    const join = await runCli([
      "backend",
      "--listen",
      "0.0.0.0:0",
      "--store",
      "memory",
      "--insecure",
      "--join",
    ]);
    expect(join.code).toBe(2);
    expect(join.stderr.trim().split("\n")).toHaveLength(1);
    expect(join.stderr).toMatch(
      /--join: 0\.0\.0\.0:0 listens on every interface .* give --advertise HOST:PORT/,
    );
    const { writeFileSync } = await import("node:fs");
    const withKeeper = `${cluster.configPath}.wildcard.json`;
    writeFileSync(withKeeper, JSON.stringify({ backends: cluster.addresses, keepers: ["127.0.0.1:1"] }));
    const keeper = await runCli([
      "keeper",
      "--config",
      withKeeper,
      "--advertise",
      "0.0.0.0:7650",
      "--insecure",
    ]);
    expect(keeper.code).toBe(2);
    expect(keeper.stderr).toMatch(/--advertise 0\.0\.0\.0:7650 names no host the other keepers can reach/);
    const add = await runCli(["admin", "add-backend", "0.0.0.0:7100", "--config", cluster.configPath]);
    expect(add.code).toBe(2);
    expect(add.stderr.trim().split("\n")).toHaveLength(1);
    expect(add.stderr).toMatch(
      /admin add-backend: backend address 0\.0\.0\.0:7100 listens on every interface/,
    );
    const zone = await runCli(["admin", "add-backend", "127.0.0.1:7100", "--zone", "a\nb"]);
    expect(zone.code).toBe(2);
    expect(zone.stderr.trim().split("\n")).toHaveLength(1);
    expect(zone.stderr).toContain('admin add-backend: --zone holds a control character: "a\\nb"');
  });
});
