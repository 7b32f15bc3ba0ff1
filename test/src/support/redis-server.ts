// A real redis-server for tests, on a free port with its own directory: the
// launcher's RedisProcess. Restart keeps port and directory, so an
// append-only file brings data back.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, hasRedisServer, RedisProcess } from "@binring/launcher";

export type RedisServer = RedisProcess;

export interface RedisServerOptions {
  /** Keep an append-only file, so restart() brings the data back. @default false */
  appendOnly?: boolean;
  /** How the append-only file is synced (when there is one). @default "always" */
  appendfsync?: "always" | "everysec";
  /** Clients must AUTH with it. @default none */
  password?: string;
}

export const RedisServer = {
  async start(options: RedisServerOptions = {}): Promise<RedisProcess> {
    if (!hasRedisServer())
      throw new Error("redis-server is not on PATH; install it (apt-get install -y redis-server)");
    const dir = mkdtempSync(join(tmpdir(), "binring-redis-"));
    for (let attempt = 0; ; attempt++) {
      const port = await freePort();
      try {
        return await RedisProcess.start(`redis:${port}`, port, dir, {
          appendOnly: options.appendOnly ?? false,
          appendfsync: options.appendfsync ?? "always",
          password: options.password,
        });
      } catch (error) {
        // Another process may have taken the port between picking and binding it.
        if (attempt >= 3) throw error;
      }
    }
  },
};
