// How `binring backend` and `binring keeper` secure their server: mutual TLS
// with the role certificate from --tls-dir, or plaintext, which is refused on
// an address other machines can reach unless --insecure says so.
import { parseHostPort, type Role, roleFiles, type TlsFiles, tlsIdentity } from "@binring/core";
import type { Logger } from "pino";
import { flagName } from "./args.js";
import { CliError } from "./cli-error.js";
import type { Flags } from "./command.js";

export const SERVER_SECURITY_FLAGS = {
  "tls-dir": {
    type: "string",
    value: "DIR",
    description:
      "mutual TLS with the certificates `binring certs` wrote there; renewed files are picked up (or on SIGHUP)",
  },
  insecure: {
    type: "boolean",
    description: "serve plaintext to any caller even on an address other machines can reach",
  },
} as const satisfies Flags;

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The TLS files the process serves with, checked now (a missing or bad file is
 * one readable line), or undefined for plaintext.
 */
export function serverTls(
  command: string,
  role: Role,
  listen: string,
  values: { "tls-dir"?: string; insecure?: boolean },
): TlsFiles | undefined {
  const dir = values["tls-dir"];
  if (dir !== undefined && values.insecure) {
    throw new CliError(`binring ${command}: give ${flagName("tls-dir")} or --insecure, not both`);
  }
  if (dir === undefined) {
    const host = parseHostPort(listen)?.host;
    if ((host === undefined || !isLoopback(host)) && !values.insecure) {
      throw new CliError(
        `binring ${command}: refusing to serve ${listen} without TLS: any machine that reaches it could read, write and drop data; give ${flagName("tls-dir")} DIR (binring certs makes one) or --insecure`,
      );
    }
    return undefined;
  }
  const files = roleFiles(dir, role);
  try {
    tlsIdentity(files);
  } catch (error) {
    throw new CliError(`binring ${command}: ${(error as Error).message}`);
  }
  return files;
}

/**
 * On SIGHUP, re-reads renewed certificate files at once (they are also checked
 * every second). Without TLS there is nothing to reload, but the signal still
 * must not stop the process, as it would by default.
 */
export function reloadOnHangup(logger: Logger, tls: TlsFiles | undefined): void {
  process.on("SIGHUP", () => {
    if (!tls) {
      logger.info("SIGHUP: nothing to reload without --tls-dir");
      return;
    }
    const failure = tlsIdentity(tls).reload();
    if (failure) logger.error({ err: failure }, "renewed certificate files not used: the previous ones stay");
    else logger.info({ cert: tls.cert }, "certificate files checked");
  });
}
