// A closed client's transport: calls still retrying when the client closed
// (a write waiting out its backoff, a read falling over to the next replica)
// must not open connections again, or those outlive the client and keep its
// process running.
import { expect, it } from "vitest";
import { ChannelTransport } from "../src/channel-transport.js";

it("answers a call after close with a closed channel, not a new connection", async () => {
  const transport = new ChannelTransport(1000);
  transport.close();
  await expect(transport.execute("127.0.0.1:1", { get: { key: "k" } }, 500)).rejects.toThrow(
    "client for 127.0.0.1:1 is closed",
  );
});
