// Sets withheld from readers (backend withheld-entries.ts, withheld-release.ts)
// on real backends over gRPC and links: a set a coordinator forwarded with the
// replicas after this one is not shown until they hold it; with no release
// from its coordinator, the backend forwards it itself, and shows it once the
// later replica took it or is gone — never while that one is merely silent.
// Only a backend's link may withhold or release (with TLS: a backend
// certificate).
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningBackend, startBackend } from "@binring/backend";
import { BackendChannel } from "@binring/client";
import { type Operation, PermissionDeniedError, roleFiles, type TlsFiles } from "@binring/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/index.js";

const target = { bin: "b", epoch: "0" };
const stamp = { clock: "7", writer: "0123456789abcdef", seq: 1 };
const get: Operation = { get: { target, key: "k" } };

function withheldSet(later: string[]): Operation {
  return { set: { target, key: "k", value: "v", stamp, laterReplicas: later } };
}

let dir: string;
let certs: string;
const open: { close(): unknown }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "binring-withheld-"));
  certs = join(dir, "certs");
  const made = await runCli(["certs", "--dir", certs]);
  expect(made.code, made.stderr).toBe(0);
}, 60_000);
afterAll(async () => {
  for (const thing of open.reverse()) await thing.close();
  rmSync(dir, { recursive: true, force: true });
});

async function backend(tls?: TlsFiles): Promise<RunningBackend> {
  const started = await startBackend({
    listen: "127.0.0.1:0",
    store: { engine: "memory" },
    ready: true,
    tls,
  });
  open.push(started);
  return started;
}

function channel(
  address: string,
  options: ConstructorParameters<typeof BackendChannel>[1] = {},
): BackendChannel {
  const made = new BackendChannel(address, { callTimeoutMs: 20_000, ...options });
  open.push(made);
  return made;
}

/** A port that takes connections and never answers: a later replica that is paused, or cut off. */
async function silentPort(): Promise<string> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket.on("error", () => undefined));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  open.push({
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  });
  const address = server.address();
  return `127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

/** A port nothing listens on: a later replica that is gone. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return `127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

/** Whether the promise settles within `ms`. */
async function answersWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const answered = await Promise.race([promise.then(() => true), late]);
  clearTimeout(timer);
  return answered;
}

describe("a set a coordinator withholds on this backend", () => {
  it("is shown at once when its coordinator releases it", async () => {
    const [here, later] = [await backend(), await backend()];
    const coordinator = channel(here.address, { link: true });
    await coordinator.execute(withheldSet([later.address]));
    const read = channel(here.address).execute(get);
    expect(await answersWithin(read, 300)).toBe(false);
    await coordinator.execute({ release: { target, key: "k", stamp } });
    expect((await read).get?.value).toBe("v");
  });

  it("is forwarded by this backend when nobody releases it, and shown once the later replica holds it", async () => {
    const [here, later] = [await backend(), await backend()];
    await channel(here.address, { link: true }).execute(withheldSet([later.address]));
    const read = channel(here.address).execute(get);
    expect(await answersWithin(read, 300)).toBe(false);
    expect((await read).get?.value).toBe("v");
    const copy = (await channel(later.address).execute(get)).get;
    expect({ value: copy?.value, clock: copy?.stamp?.clock }).toEqual({ value: "v", clock: "7" });
  });

  it("stays withheld while the later replica takes connections and never answers", async () => {
    const here = await backend();
    await channel(here.address, { link: true }).execute(withheldSet([await silentPort()]));
    expect(await answersWithin(channel(here.address).execute(get), 4000)).toBe(false);
  });

  it("is shown once the later replica is found gone: nothing listens on its port", async () => {
    const here = await backend();
    await channel(here.address, { link: true }).execute(withheldSet([await closedPort()]));
    expect((await channel(here.address).execute(get)).get?.value).toBe("v");
  });
});

describe("withholding and releasing", () => {
  it.each([
    ["a set with later replicas", withheldSet(["127.0.0.1:1"])],
    ["a release", { release: { target, key: "k", stamp } }],
  ])("are refused on a client's Pipe: %s", async (_, operation) => {
    const here = await backend();
    await expect(channel(here.address).execute(operation)).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it("under TLS are taken on a link from a backend certificate, refused on one from a client certificate", async () => {
    const here = await backend(roleFiles(certs, "backend"));
    const client = channel(here.address, { tls: roleFiles(certs, "client"), link: true });
    await expect(client.execute(withheldSet(["127.0.0.1:1"]))).rejects.toThrow(
      "a set with later_replicas is taken only on a link from a backend",
    );
    await expect(client.execute({ release: { target, key: "k", stamp } })).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
    const peer = channel(here.address, { tls: roleFiles(certs, "backend"), link: true });
    await peer.execute(withheldSet([await closedPort()]));
    expect((await peer.execute(get)).get?.value).toBe("v");
  });
});
