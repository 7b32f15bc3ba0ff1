// The keeper's HTTP endpoints: GET / (the live ring page, ring-page.ts),
// GET /health (liveness), GET /status (JSON) and GET /metrics (Prometheus
// text, keeper-metrics.ts).
import type { Server } from "node:http";
import { startHttpEndpoint } from "@binring/core";
import type { Keeper } from "./keeper.js";
import { RING_PAGE_HTML } from "./ring-page.js";

export function startStatusServer(
  keeper: Keeper,
  listen: string,
): Promise<{ address: string; server: Server }> {
  return startHttpEndpoint(listen, (path, response) => {
    const send = (code: number, body: unknown) => {
      response.writeHead(code, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (path === "/" || path === "/index.html") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" });
      response.end(RING_PAGE_HTML);
      return;
    }
    if (path === "/health")
      return send(200, { ok: true, keeper: keeper.name, epoch: keeper.epoch.toString() });
    if (path === "/status") return send(200, keeper.status());
    if (path === "/metrics") {
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
    return send(404, { error: `no such path ${path}; try /, /health, /status or /metrics` });
  });
}
