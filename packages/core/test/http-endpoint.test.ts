// Keepers' and backends' HTTP endpoints route by path alone (a query string
// does not turn /status into a 404), serve HEAD as GET without a body, and
// refuse every other method with 405 and an Allow header.
import type { Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { requestPath, startHttpEndpoint } from "../src/index.js";

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(): Promise<string> {
  const started = await startHttpEndpoint("127.0.0.1:0", (path, response) => {
    response.writeHead(path === "/status" ? 200 : 404, { "content-type": "text/plain" });
    response.end(`path ${path}`);
  });
  server = started.server;
  return `http://${started.address}`;
}

describe("HTTP endpoints", () => {
  it("route by the path, whatever the query", async () => {
    const base = await serve();
    for (const target of ["/status", "/status?x=1", "/status?", "/status?_=1795924684983&format=json"]) {
      const response = await fetch(`${base}${target}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("path /status");
    }
    expect((await fetch(`${base}/statusx?y`)).status).toBe(404);
  });

  it("answer HEAD like GET, without a body, and refuse other methods naming the allowed ones", async () => {
    const base = await serve();
    const head = await fetch(`${base}/status`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const post = await fetch(`${base}/status`, { method: "POST", body: "x" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });

  it("take the path as what comes before the first ?", () => {
    expect(requestPath("/metrics")).toBe("/metrics");
    expect(requestPath("/metrics?a?b")).toBe("/metrics");
    expect(requestPath("//status")).toBe("//status");
  });
});
