// A free TCP port on 127.0.0.1 for a process the caller starts next (or
// restarts later on the same address).
//
// Not listen(0): the OS hands those out from its ephemeral range, the same
// range every outgoing connection on the machine takes its local port from.
// Between picking such a port and the child binding it, any client socket may
// take it; CI saw a keeper fail to start with EADDRINUSE that way. Ports below
// the ephemeral range are only ever taken by explicit binds, so pick there:
// each process walks the range from its own pid-derived start, so concurrent
// test workers do not hand out the same port, and checks each one binds.
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

const LOWEST_PORT = 12_000;
/** Linux's default start of the ephemeral range; macOS starts at 49152. */
const DEFAULT_EPHEMERAL_START = 32_768;

/** Where the walk goes next, and where it ends; set on the first call. */
let cursor: number | undefined;
let end: number | undefined;

export async function freePort(): Promise<number> {
  end ??= ephemeralStart();
  const size = end - LOWEST_PORT;
  cursor ??= (process.pid * 7_919) % size;
  for (let tried = 0; tried < size; tried++) {
    const port = LOWEST_PORT + (cursor++ % size);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port on 127.0.0.1 between ${LOWEST_PORT} and ${end - 1}`);
}

function ephemeralStart(): number {
  try {
    const start = Number(
      readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0],
    );
    return start > LOWEST_PORT + 1_000 ? start : DEFAULT_EPHEMERAL_START;
  } catch {
    return DEFAULT_EPHEMERAL_START;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => server.close(() => resolve(true)));
  });
}
