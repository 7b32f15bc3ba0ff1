// The keeper's HTTP endpoints: GET / (the live ring page, ring-page.ts),
// GET /health (liveness), GET /status (JSON) and GET /metrics (Prometheus
// text, keeper-metrics.ts).
import { createServer, type Server } from "node:http";
import type { Keeper } from "./keeper.js";
import { RING_PAGE_HTML } from "./ring-page.js";

export async function startStatusServer(
  keeper: Keeper,
  listen: string,
): Promise<{ address: string; server: Server }> {
  const server = createServer((request, response) => {
    const send = (code: number, body: unknown) => {
      response.writeHead(code, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (request.method !== "GET") return send(405, { error: "only GET is served" });
    if (request.url === "/" || request.url === "/index.html") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" });
      response.end(RING_PAGE_HTML);
      return;
    }
    if (request.url === "/health")
      return send(200, { ok: true, keeper: keeper.name, epoch: keeper.epoch.toString() });
    if (request.url === "/status") return send(200, keeper.status());
    if (request.url === "/metrics") {
      const { registry } = keeper.metrics;
      registry.metrics().then(
        (text) => {
          response.writeHead(200, { "content-type": registry.contentType });
          response.end(text);
        },
        (error: unknown) => send(500, { error: `metrics failed: ${(error as Error).message}` }),
      );
      return;
    }
    return send(404, { error: `no such path ${request.url}; try /, /health, /status or /metrics` });
  });
  const separator = listen.lastIndexOf(":");
  const host = listen.slice(0, separator);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(Number(listen.slice(separator + 1)), host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { address: `${host}:${port}`, server };
}
