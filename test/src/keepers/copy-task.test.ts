// A repair copy task counts as done only when every live source was copied
// completely: one complete source may be a stand-in still being repaired, so
// a task with a source that failed must be retried, not trusted.
import { type RunningBackend, startBackend } from "@binring/backend";
import { BackendChannel } from "@binring/client";
import { WHOLE_RING } from "@binring/core";
import { copyTask } from "@binring/keeper";
import { pino } from "pino";
import { afterEach, expect, it } from "vitest";
import { freePort } from "../support/index.js";

const running: RunningBackend[] = [];
const channels: BackendChannel[] = [];
afterEach(async () => {
  for (const channel of channels.splice(0)) channel.close();
  await Promise.all(running.splice(0).map((backend) => backend.close()));
});

async function backend(): Promise<string> {
  const started = await startBackend({ listen: "127.0.0.1:0", store: { engine: "memory" }, ready: true });
  running.push(started);
  return started.address;
}

function context() {
  const byAddress = new Map<string, BackendChannel>();
  return {
    channel: (address: string) => {
      let channel = byAddress.get(address);
      if (!channel) {
        channel = new BackendChannel(address, { callTimeoutMs: 2000 });
        byAddress.set(address, channel);
        channels.push(channel);
      }
      return channel;
    },
    epoch: () => 0n,
    batchSize: 100,
    logger: pino({ level: "silent" }),
    progress: { entriesCopied: 0, bytesCopied: 0, tasksDone: 0, tasksTotal: 1, duplicatesSkipped: 0 },
  };
}

it("is done when every source was copied, and not when one of them failed", async () => {
  const [source, target] = [await backend(), await backend()];
  const writer = new BackendChannel(source);
  channels.push(writer);
  const targetOf = { bin: "b", epoch: "0", requireReady: false };
  for (let i = 0; i < 10; i++) await writer.execute({ set: { target: targetOf, key: `k${i}`, value: "v" } });
  const unreachable = `127.0.0.1:${await freePort()}`;

  const ranges = [...WHOLE_RING];
  expect(await copyTask({ target, sources: [source, unreachable], ranges }, context())).toBe(false);
  const complete = context();
  expect(await copyTask({ target, sources: [source], ranges }, complete)).toBe(true);
  expect(complete.progress.entriesCopied).toBe(10);
});
