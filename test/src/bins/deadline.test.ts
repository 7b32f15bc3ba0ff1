// A bin call that cannot complete fails with a clear error after the
// configured time instead of hanging.
import { BinClient } from "@binring/client";
import { TimeoutError } from "@binring/core";
import { expect, it } from "vitest";
import { freePort } from "../support/index.js";

it("fails with TimeoutError after callTimeoutMs when no replica is reachable", async () => {
  const backends = [`127.0.0.1:${await freePort()}`, `127.0.0.1:${await freePort()}`];
  const client = new BinClient({ backends, callTimeoutMs: 800 });
  for (const call of [() => client.bin("b").set("k", "v"), () => client.bin("b").get("k")]) {
    const error = await call().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/in bin "b" did not complete within 800 ms/);
  }
  await client.close();
});
