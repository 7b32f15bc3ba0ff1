// Links (core link-frames.ts, client link-pipe.ts, backend link-listener.ts):
// a backend serves gRPC and links on its one port, in plaintext and with
// mutual TLS; a link that sends garbage, or a frame past the limit, is closed
// without harm to the backend's other callers; under TLS a caller without a
// certificate of the cluster's CA gets no link at all.
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningBackend, startBackend } from "@binring/backend";
import { BackendChannel } from "@binring/client";
import { LINK_MAGIC, MAX_FRAME_BYTES, roleFiles, type TlsFiles } from "@binring/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/index.js";

let dir: string;
let certs: string;
let otherCa: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "binring-links-"));
  certs = join(dir, "certs");
  otherCa = join(dir, "other");
  for (const into of [certs, otherCa]) {
    const made = await runCli(["certs", "--dir", into]);
    expect(made.code, made.stderr).toBe(0);
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = { get: { target: { bin: "b", epoch: "0" }, key: "k" } };

/** A frame's 4-byte length, and nothing of the message it announces. */
function lengthOnly(length: number): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt32BE(length);
  return header;
}

async function backendWith(tls: TlsFiles | undefined): Promise<RunningBackend> {
  return startBackend({ listen: "127.0.0.1:0", store: { engine: "memory" }, ready: true, tls });
}

describe.each([
  ["plaintext", () => undefined],
  ["mutual TLS", () => roleFiles(certs, "backend")],
])("a backend in %s", (_mode, files) => {
  it("serves gRPC and links on its one port", async () => {
    const backend = await backendWith(files());
    const tls = files();
    const grpc = new BackendChannel(backend.address, { tls: tls && roleFiles(certs, "client") });
    const link = new BackendChannel(backend.address, { tls, link: true });
    try {
      await link.execute({ set: { target: { bin: "b", epoch: "0" }, key: "k", value: "by link" } });
      expect((await grpc.execute(get)).get?.value).toBe("by link");
      expect((await link.execute(get)).get?.value).toBe("by link");
    } finally {
      grpc.close();
      link.close();
      await backend.close();
    }
  });
});

describe("a link that breaks the framing", () => {
  it.each([
    ["garbage where a frame should be", Buffer.from([0, 0, 0, 3, 0xff, 0xff, 0xff])],
    ["a frame past the limit", lengthOnly(MAX_FRAME_BYTES + 1)],
  ])("is closed for %s, and the backend serves its other links", async (_what, bytes) => {
    const backend = await backendWith(undefined);
    const [host, port] = backend.address.split(":");
    const healthy = new BackendChannel(backend.address, { link: true });
    try {
      const closed = await new Promise<boolean>((resolve) => {
        const socket = connect({ host: host!, port: Number(port) }, () =>
          socket.write(Buffer.concat([LINK_MAGIC, bytes])),
        );
        socket.on("close", () => resolve(true));
        socket.on("error", () => undefined);
        socket.resume();
      });
      expect(closed).toBe(true);
      expect((await healthy.execute(get)).result).toBe("get");
    } finally {
      healthy.close();
      await backend.close();
    }
  });
});

describe("a link under mutual TLS", () => {
  it.each([
    ["of another CA", () => roleFiles(otherCa, "backend")],
    // Trusting the cluster's CA does not help a certificate another CA signed: the backend refuses it.
    [
      "of another CA, trusting the cluster's",
      () => ({ ...roleFiles(otherCa, "backend"), ca: roleFiles(certs, "backend").ca }),
    ],
  ])("is refused to a certificate %s: the call fails, the backend serves on", async (_who, files) => {
    const backend = await backendWith(roleFiles(certs, "backend"));
    const stranger = new BackendChannel(backend.address, { tls: files(), link: true, callTimeoutMs: 3000 });
    const member = new BackendChannel(backend.address, { tls: roleFiles(certs, "backend"), link: true });
    try {
      await expect(stranger.execute(get)).rejects.toThrow(/unavailable|did not answer|closed the link/);
      expect((await member.execute(get)).result).toBe("get");
    } finally {
      stranger.close();
      member.close();
      await backend.close();
    }
  });
});
