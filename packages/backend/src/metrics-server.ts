// A backend's HTTP endpoint: GET /metrics, the Prometheus text of its registry
// (backend-metrics.ts). Started only when the backend is given an HTTP address.
import type { Server } from "node:http";
import { startHttpEndpoint } from "@binring/core";
import type { Registry } from "prom-client";

export function startMetricsServer(
  registry: Registry,
  listen: string,
): Promise<{ address: string; server: Server }> {
  return startHttpEndpoint(listen, (path, response) => {
    const send = (code: number, body: string) => {
      response.writeHead(code, { "content-type": "text/plain; charset=utf-8" });
      response.end(`${body}\n`);
    };
    if (path !== "/metrics") return send(404, `no such path ${path}; try /metrics`);
    registry.metrics().then(
      (text) => {
        response.writeHead(200, { "content-type": registry.contentType });
        response.end(text);
      },
      (error: unknown) => send(500, `metrics failed: ${(error as Error).message}`),
    );
  });
}
