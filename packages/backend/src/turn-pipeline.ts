// Redis commands issued in the same event-loop turn, by any number of
// concurrent requests, go to Redis as one pipeline: one socket write and one
// read for all of them instead of one each. Under load the per-command socket
// writes were the backend's largest cost. ioredis' own auto-pipelining does
// the same, but its reply bookkeeping crashed backends in a soak
// (redis/ioredis#1931); an explicit pipeline keeps replies in order by itself.
import { TurnBatch } from "@binring/core";
import type { Redis } from "ioredis";

/** A command as ioredis' `pipeline()` takes it: the method name, then its arguments. */
export type RedisCommand = [name: string, ...args: (string | number)[]];

interface QueuedCommand {
  command: RedisCommand;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export class TurnPipeline {
  readonly #batch = new TurnBatch<QueuedCommand>((queued) => this.#exec(queued));

  constructor(private readonly redis: Redis) {}

  /** Queues one command for this turn's pipeline; settles with that command's own reply. */
  send<T>(...command: RedisCommand): Promise<T> {
    return new Promise((resolve, reject) => {
      this.#batch.add({ command, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  #exec(queued: QueuedCommand[]): void {
    this.redis
      .pipeline(queued.map(({ command }) => command))
      .exec()
      .then(
        (replies) => {
          queued.forEach(({ resolve, reject }, i) => {
            const [error, value] = replies?.[i] ?? [new Error("redis pipeline returned no reply"), null];
            if (error) reject(error);
            else resolve(value);
          });
        },
        (error: unknown) => {
          for (const { reject } of queued) reject(error);
        },
      );
  }
}
