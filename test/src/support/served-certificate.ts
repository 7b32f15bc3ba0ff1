// What certificate a TLS server presents to a new connection: how tests see
// that a renewed certificate is in use without restarting anything.
import { readFileSync } from "node:fs";
import { connect } from "node:tls";
import type { TlsFiles } from "@binring/core";

/** The serial number of the certificate the server at address (host:port) presents now. */
export function servedSerial(address: string, tls: TlsFiles): Promise<string> {
  const separator = address.lastIndexOf(":");
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: address.slice(0, separator),
      port: Number(address.slice(separator + 1)),
      ca: readFileSync(tls.ca),
      cert: readFileSync(tls.cert),
      key: readFileSync(tls.key),
      ALPNProtocols: ["h2"],
    });
    socket.once("secureConnect", () => {
      resolve(socket.getPeerCertificate().serialNumber);
      socket.destroy();
    });
    socket.once("error", reject);
  });
}
