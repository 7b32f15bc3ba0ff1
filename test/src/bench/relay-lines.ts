// The wire of the ceiling benchmark's relay (relay-node.ts): one request or
// answer per line on plain TCP, a connection's lines of one event-loop turn in
// one socket write (as binring batches per turn), answers matched by id.
import net from "node:net";
import type { LoadTarget } from "@binring/load";

/** What a replica does with a write: a plain Redis SET, or binring's apply script with one entry. */
export type RelayMode = "set" | "script";

/** Calls `onLine` with each newline-terminated line the socket brings. */
export function readLines(socket: net.Socket, onLine: (line: string) => void): void {
  let rest = "";
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop()!;
    for (const line of lines) onLine(line);
  });
}

/** A line writer whose lines of one event-loop turn go as one socket write. */
export function turnWriter(socket: net.Socket): (line: string) => void {
  let lines: string[] = [];
  return (line) => {
    lines.push(line);
    if (lines.length > 1) return;
    setImmediate(() => {
      socket.write(`${lines.join("\n")}\n`);
      lines = [];
    });
  };
}

/** Requests on one connection, each answered by "R <its id>". */
export class LineCalls {
  readonly #socket: net.Socket;
  readonly #send: (line: string) => void;
  readonly #waiting = new Map<string, () => void>();
  #nextId = 0;

  constructor(port: number) {
    this.#socket = net.connect(port, "127.0.0.1");
    this.#socket.setNoDelay(true);
    readLines(this.#socket, (line) => {
      const id = line.slice(2);
      this.#waiting.get(id)?.();
      this.#waiting.delete(id);
    });
    this.#send = turnWriter(this.#socket);
  }

  /** Sends "<kind> <id> <rest>" and resolves on its answer. */
  call(kind: string, rest: string): Promise<void> {
    const id = String(this.#nextId++);
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.#send(`${kind} ${id} ${rest}`);
    });
  }

  close(): void {
    this.#socket.destroy();
  }
}

/**
 * A client of the relay whose nodes listen on `ports`: a key's write goes to
 * the node its hash picks, with the next two as that node's backups (first,
 * then last). It only writes.
 */
export function relayTarget(
  ports: readonly number[],
  mode: RelayMode,
): LoadTarget & { close(): Promise<void> } {
  const calls = ports.map((port) => new LineCalls(port));
  const n = ports.length;
  return {
    set: (key, value) => {
      const coordinator = hashOf(key) % n;
      const [first, last] = [ports[(coordinator + 1) % n], ports[(coordinator + 2) % n]];
      return calls[coordinator]!.call("W", `${mode} ${key} ${value} ${first} ${last}`);
    },
    get: () => Promise.reject(new Error("the relay only takes sets")),
    listAppend: () => Promise.reject(new Error("the relay only takes sets")),
    close: async () => {
      for (const call of calls) call.close();
    },
  };
}

/** FNV-1a of the key's characters: spreads "bin0".."bin999" over the nodes. */
export function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
