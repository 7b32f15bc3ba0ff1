// The HTTP side of keepers and backends (status, health, the ring page,
// metrics): read-only, so GET and HEAD only, routed by path alone. A query
// string (a scraper's cache-buster, ?format=json) does not change the page.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { InvalidArgumentError } from "./errors.js";
import { formatHostPort, parseHostPort } from "./host-port.js";

/** Answers one request for `path` (the request's path without its query). */
export type HttpRoute = (path: string, response: ServerResponse, request: IncomingMessage) => void;

/** Serves `route` on `listen` (host:port, port 0 picks one); resolves with the address it listens on. */
export async function startHttpEndpoint(
  listen: string,
  route: HttpRoute,
): Promise<{ address: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { "content-type": "text/plain; charset=utf-8", allow: "GET, HEAD" });
      response.end("only GET and HEAD are served\n");
      return;
    }
    route(requestPath(request.url ?? "/"), response, request);
  });
  const at = parseHostPort(listen);
  if (!at)
    throw new InvalidArgumentError(`HTTP listen address must be host:port, got ${JSON.stringify(listen)}`);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(at.port, at.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { address: formatHostPort(at.host, port), server };
}

/** The path of a request target: what comes before its query. */
export function requestPath(target: string): string {
  const query = target.indexOf("?");
  return query === -1 ? target : target.slice(0, query);
}
