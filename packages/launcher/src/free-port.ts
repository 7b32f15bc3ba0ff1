// A free TCP port on 127.0.0.1 for a process the caller starts next (or
// restarts later on the same address).
//
// Not listen(0): the OS hands those out from its ephemeral range, the same
// range every outgoing connection on the machine takes its local port from.
// Between picking such a port and the child binding it, any client socket may
// take it; CI saw a keeper fail to start with EADDRINUSE that way. Ports below
// the ephemeral range are only ever taken by explicit binds, so pick there:
// each process walks the range (a test worker its own share of it) from a
// pid-derived start, and checks each port binds.
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

const LOWEST_PORT = 12_000;
/** Linux's default start of the ephemeral range; macOS starts at 49152. */
const DEFAULT_EPHEMERAL_START = 32_768;

/**
 * Test workers (VITEST_POOL_ID, set by the test runner) each walk their own
 * share of the range: a port one worker chose for a member it starts later
 * must not be handed to another worker's process meanwhile.
 */
const SHARES = 4;

/** The stretch of ports this process walks, and where the walk goes next; set on the first call. */
let walk: { first: number; size: number; cursor: number } | undefined;

export async function freePort(): Promise<number> {
  walk ??= startWalk();
  for (let tried = 0; tried < walk.size; tried++) {
    const port = walk.first + (walk.cursor++ % walk.size);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port on 127.0.0.1 between ${walk.first} and ${walk.first + walk.size - 1}`);
}

function startWalk(): { first: number; size: number; cursor: number } {
  const total = ephemeralStart() - LOWEST_PORT;
  const pool = Number(process.env.VITEST_POOL_ID);
  const shared = Number.isSafeInteger(pool) && pool > 0;
  const size = shared ? Math.floor(total / SHARES) : total;
  const first = shared ? LOWEST_PORT + ((pool - 1) % SHARES) * size : LOWEST_PORT;
  return { first, size, cursor: (process.pid * 7_919) % size };
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
