// A backend's HTTP endpoint: GET /metrics, the Prometheus text of its registry
// (backend-metrics.ts). Started only when the backend is given an HTTP address.
import { createServer, type Server } from "node:http";
import type { Registry } from "prom-client";

export async function startMetricsServer(
  registry: Registry,
  listen: string,
): Promise<{ address: string; server: Server }> {
  const server = createServer((request, response) => {
    const send = (code: number, body: string) => {
      response.writeHead(code, { "content-type": "text/plain; charset=utf-8" });
      response.end(`${body}\n`);
    };
    if (request.method !== "GET") return send(405, "only GET is served");
    if (request.url !== "/metrics") return send(404, `no such path ${request.url}; try /metrics`);
    registry.metrics().then(
      (text) => {
        response.writeHead(200, { "content-type": registry.contentType });
        response.end(text);
      },
      (error: unknown) => send(500, `metrics failed: ${(error as Error).message}`),
    );
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
