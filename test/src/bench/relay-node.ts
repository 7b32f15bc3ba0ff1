// One process of the ceiling benchmark's relay (ceiling-bench.ts): binring's
// write pattern with none of binring. On its port it takes lines
//   W <id> <mode> <key> <value> <first backup port> <last backup port>
// (a write it coordinates: forwarded to both backups and applied here at
// once, answered when all three have it, as binring's coordinator does a set), and
//   A <id> <mode> <key> <value>
// (a forwarded apply), and answers each with "R <id>" once done. Started with
// fork(): its Redis URL as argv[2]; it sends the parent its port once listening.
import { readFileSync } from "node:fs";
import net from "node:net";
import { applyScriptArguments } from "@binring/backend";
import { type Entry, newWriterId } from "@binring/core";
import { Redis } from "ioredis";
import { REPO_ROOT } from "../support/binring-process.js";
import { LineCalls, type RelayMode, readLines, turnWriter } from "./relay-lines.js";

async function main(redisUrl: string): Promise<void> {
  const redis = new Redis(redisUrl, { enableAutoPipelining: true });
  // EVALSHA once loaded, as binring's backend calls it.
  redis.defineCommand("applyEntries", {
    numberOfKeys: 0,
    lua: readFileSync(`${REPO_ROOT}packages/backend/lua/apply-entries.lua`, "utf8"),
  });
  const applyEntries = (
    redis as unknown as { applyEntries(...args: (string | number | Buffer)[]): Promise<unknown> }
  ).applyEntries;
  const writer = newWriterId();
  let seq = 0;
  const apply = (mode: RelayMode, key: string, value: string): Promise<unknown> => {
    if (mode === "set") return redis.set(key, value);
    // One set entry, stamped by this node, as binring's backend passes it to the script.
    seq++;
    const entry: Entry = { bin: "bin0", key, kind: "set", value, stamp: { clock: BigInt(seq), writer, seq } };
    const ignored = () => undefined;
    return applyEntries.apply(
      redis,
      applyScriptArguments("", [
        { entries: [entry], decides: true, limited: true, resolve: ignored, reject: ignored },
      ]),
    );
  };
  const peers = new Map<number, LineCalls>();
  const peer = (port: number) => {
    const known = peers.get(port);
    if (known) return known;
    const calls = new LineCalls(port);
    peers.set(port, calls);
    return calls;
  };
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    const reply = turnWriter(socket);
    readLines(socket, (line) => {
      const [kind, id, mode, key, value, firstBackup, lastBackup] = line.split(" ") as string[];
      const run = async () => {
        const forwards =
          kind === "W"
            ? [lastBackup, firstBackup].map((port) => peer(Number(port)).call("A", `${mode} ${key} ${value}`))
            : [];
        await Promise.all([...forwards, apply(mode as RelayMode, key!, value!)]);
      };
      void run().then(() => reply(`R ${id}`));
    });
  });
  server.listen(0, "127.0.0.1", () => process.send?.({ port: (server.address() as net.AddressInfo).port }));
}

void main(process.argv[2]!);
