// A backend's one listening port, for gRPC and for links (client link-pipe.ts)
// alike, told apart by the caller's first bytes: a link opens with LINK_MAGIC
// (then its TLS handshake, with TLS), gRPC with a TLS handshake or the HTTP/2
// preface. gRPC connections are handed, bytes and all, to the grpc-js server
// (createConnectionInjector), which serves them as if it had accepted them,
// TLS included; links go to the Storage service's Pipe handler. One address
// per backend, as before links existed: nothing to add to a firewall or a
// cluster file.
import { createServer, type Server, type Socket } from "node:net";
import { createServer as createTlsServer, type TLSSocket, type Server as TlsServer } from "node:tls";
import {
  certificateRole,
  formatHostPort,
  InvalidArgumentError,
  LINK_MAGIC,
  parseHostPort,
  SERVICE_ROLES,
  serverCredentials,
  type TlsFiles,
  tlsIdentity,
} from "@binring/core";
import type * as grpc from "@grpc/grpc-js";
import type { Logger } from "pino";
import { LinkStream } from "./link-stream.js";

type ConnectionInjector = ReturnType<grpc.Server["createConnectionInjector"]>;

/** How long a new connection may take to show what it is (its TLS handshake, or its first bytes). */
const IDENTIFY_TIMEOUT_MS = 10_000;

export interface LinkListenerOptions {
  /** host:port; port 0 picks a free one. */
  listen: string;
  /** The gRPC server whose services this port serves. */
  server: grpc.Server;
  /** Serves one link. */
  serveLink(link: LinkStream): void;
  tls?: TlsFiles;
  logger: Logger;
}

export class LinkListener {
  readonly #links = new Set<LinkStream>();
  /** The TLS server that secures links, and the certificate it was last given (it changes on renewal). */
  #tls: { server: TlsServer; material: Buffer } | undefined;

  private constructor(
    private readonly net: Server,
    /** host:port actually bound. */
    readonly address: string,
  ) {}

  static async listen(options: LinkListenerOptions): Promise<LinkListener> {
    const at = parseHostPort(options.listen);
    if (!at)
      throw new InvalidArgumentError(
        `listen address must be host:port, got ${JSON.stringify(options.listen)}`,
      );
    const injector = options.server.createConnectionInjector(serverCredentials(options.tls));
    let listener: LinkListener | undefined;
    const net = createServer((socket) => {
      if (listener) listener.#accept(socket, options, injector);
      else socket.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      net.once("error", reject);
      net.listen({ host: at.host, port: at.port }, () => resolve());
    });
    const bound = net.address();
    const boundPort = typeof bound === "object" && bound ? bound.port : at.port;
    listener = new LinkListener(net, formatHostPort(at.host, boundPort));
    return listener;
  }

  #accept(socket: Socket, options: LinkListenerOptions, injector: ConnectionInjector): void {
    socket.setNoDelay(true);
    const timer = setTimeout(() => socket.destroy(), IDENTIFY_TIMEOUT_MS);
    socket.once("close", () => clearTimeout(timer));
    identify(
      socket,
      (rest) => {
        clearTimeout(timer);
        if (options.tls) this.#secureLink(socket, rest, options);
        else this.#serveLink(socket, options, rest);
      },
      (connection) => {
        clearTimeout(timer);
        injector.injectConnection(connection);
      },
    );
  }

  #serveLink(connection: Socket, options: LinkListenerOptions, first?: Buffer, fromBackend = true): void {
    const link = new LinkStream(connection, first, fromBackend);
    this.#links.add(link);
    connection.once("close", () => this.#links.delete(link));
    options.serveLink(link);
  }

  /**
   * TLS for a link, on the connection past its magic, by a TLS server of this
   * listener's (it verifies the caller's certificate and refuses what the CA
   * did not sign); the caller must hold a certificate with a data role.
   */
  #secureLink(socket: Socket, rest: Buffer, options: LinkListenerOptions): void {
    const identity = tlsIdentity(options.tls!);
    identity.reload();
    const material = identity.material;
    if (!this.#tls || this.#tls.material !== material.cert) {
      const server = this.#tls?.server ?? this.#tlsServer(options);
      server.setSecureContext(material);
      this.#tls = { server, material: material.cert };
    }
    if (rest.length > 0) socket.unshift(rest);
    this.#tls.server.emit("connection", socket);
  }

  #tlsServer(options: LinkListenerOptions): TlsServer {
    const server = createTlsServer({
      requestCert: true,
      rejectUnauthorized: true,
      handshakeTimeout: IDENTIFY_TIMEOUT_MS,
    });
    server.on("tlsClientError", (error) =>
      options.logger.debug(
        { err: error },
        "a link failed its TLS handshake (a certificate the CA did not sign?)",
      ),
    );
    server.on("secureConnection", (secure: TLSSocket) => {
      // A link carries data calls only: the roles that may make them.
      const role = certificateRole(secure.getPeerCertificate());
      if (role !== undefined && (SERVICE_ROLES["binring.v1.Storage"] as readonly string[]).includes(role))
        return this.#serveLink(secure, options, undefined, role === "backend");
      options.logger.warn({ role }, "refused a link from a certificate without a data role");
      secure.destroy();
    });
    return server;
  }

  /** Stops taking connections and closes every link; gRPC's connections are the server's to drain. */
  close(): void {
    this.net.close();
    for (const link of this.#links) link.fail();
  }
}

/**
 * Reads a new connection's first bytes: LINK_MAGIC makes it a link (`link`
 * gets what came after the magic), anything else is gRPC, given its bytes back.
 */
function identify(
  socket: Socket,
  link: (rest: Buffer) => void,
  grpcConnection: (socket: Socket) => void,
): void {
  let head: Buffer = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
    const compared = Math.min(head.length, LINK_MAGIC.length);
    const isLink = head.subarray(0, compared).equals(LINK_MAGIC.subarray(0, compared));
    if (isLink && head.length < LINK_MAGIC.length) return;
    socket.off("data", onData);
    socket.pause();
    if (isLink) return link(head.subarray(LINK_MAGIC.length));
    socket.unshift(head);
    grpcConnection(socket);
  };
  socket.on("data", onData);
  socket.on("error", () => socket.destroy());
}
