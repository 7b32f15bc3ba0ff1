// `binring dev`: a whole local cluster in one command. Each backend gets its
// own redis-server (append-only, under --dir), or the memory engine when no
// redis-server is installed. Writes binring.json and runs until Ctrl-C.
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ClusterConfig } from "@binring/core";
import { parseFlags, parsePositiveInt } from "../args.js";
import { CliError } from "../cli-error.js";
import { createLogger } from "../logger.js";
import {
  type Child,
  CLI_MAIN,
  freePort,
  hasRedisServer,
  startChild,
  startRedis,
  stopAll,
} from "../processes.js";
import { onShutdown } from "../shutdown.js";

export const DEV_USAGE =
  "binring dev [--backends 6] [--keepers 3] [--dir .binring] [--config binring.json] [--port-base 7100 | 0]";

export async function devCommand(args: string[]): Promise<void> {
  const { values } = parseFlags("dev", args, {
    backends: { type: "string" },
    keepers: { type: "string" },
    dir: { type: "string" },
    config: { type: "string" },
    "port-base": { type: "string" },
  });
  const backendCount = parsePositiveInt("backends", values.backends, 6);
  if (backendCount > 64)
    throw new CliError(`--backends must be at most 64 on one machine, got ${backendCount}`);
  const keeperCount = values.keepers === "0" ? 0 : parsePositiveInt("keepers", values.keepers, 3);
  if (keeperCount > 10) throw new CliError(`--keepers must be at most 10, got ${keeperCount}`);
  const portBase = values["port-base"] === "0" ? 0 : parsePositiveInt("port-base", values["port-base"], 7100);
  const dir = resolve(values.dir ?? ".binring");
  const configPath = resolve(values.config ?? "binring.json");
  const logger = createLogger("dev");
  const useRedis = hasRedisServer();
  if (!useRedis)
    logger.warn("redis-server not found on PATH: backends use the in-memory engine (data ends with them)");

  const children: Child[] = [];
  onShutdown(logger, () => stopAll(children));
  const rows: string[][] = [];
  try {
    for (let i = 0; i < backendCount; i++) {
      const port = portBase === 0 ? await freePort() : portBase + i;
      const store: string[] = [];
      let redisPort = "";
      if (useRedis) {
        const redisListen = portBase === 0 ? await freePort() : portBase + 1000 + i;
        children.push(
          await startRedis(
            `redis-${i}`,
            redisListen,
            join(dir, `redis-${i}`),
            logger,
            join(dir, "logs", `redis-${i}.log`),
          ),
        );
        store.push("--redis", `redis://127.0.0.1:${redisListen}`);
        redisPort = String(redisListen);
      } else store.push("--store", "memory");
      const backend = await startChild(
        `backend-${i}`,
        process.execPath,
        // Without keepers nobody would ever declare the fresh backends ready, so they start ready.
        [
          CLI_MAIN,
          "backend",
          "--listen",
          `127.0.0.1:${port}`,
          ...store,
          ...(keeperCount === 0 ? ["--ready"] : []),
        ],
        /"msg":"backend listening"/,
        logger,
        join(dir, "logs", `backend-${i}.log`),
      );
      children.push(backend);
      rows.push([
        `backend-${i}`,
        `127.0.0.1:${port}`,
        redisPort ? `redis 127.0.0.1:${redisPort}` : "memory",
        String(backend.process.pid),
      ]);
    }
    const keepers = await Promise.all(
      Array.from(
        { length: keeperCount },
        async (_, i) => `127.0.0.1:${portBase === 0 ? await freePort() : portBase + 500 + i}`,
      ),
    );
    const config: ClusterConfig = { backends: rows.map((row) => row[1]!), keepers };
    writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
    for (const [i, address] of keepers.entries()) {
      const httpPort = portBase === 0 ? await freePort() : portBase + 600 + i;
      const keeper = await startChild(
        `keeper-${i}`,
        process.execPath,
        [CLI_MAIN, "keeper", "--config", configPath, "--index", String(i), "--http", `127.0.0.1:${httpPort}`],
        /"msg":"keeper listening"/,
        logger,
        join(dir, "logs", `keeper-${i}.log`),
      );
      children.push(keeper);
      rows.push([`keeper-${i}`, address, `http 127.0.0.1:${httpPort}`, String(keeper.process.pid)]);
    }
  } catch (error) {
    await stopAll(children);
    throw error;
  }
  const table = rows.map((row) => `  ${row.map((cell) => cell.padEnd(24)).join("")}`).join("\n");
  process.stderr.write(
    `binring dev: ${backendCount} backends and ${keeperCount} keepers running (Ctrl-C stops them all)\n${table}\n  cluster file: ${configPath}\n  logs: ${join(dir, "logs")}\n`,
  );
  logger.info({ config: configPath }, "cluster running");
}
