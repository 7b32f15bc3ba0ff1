// Reads and validates the cluster file (binring.json) for the CLI.
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { type ClusterConfig, parseClusterConfig, roleFiles, type TlsFiles, tlsIdentity } from "@binring/core";
import { CliError } from "./cli-error.js";

export function readClusterFile(path: string): ClusterConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new CliError(`cannot read cluster file ${path}: ${(error as Error).message}`);
  }
  try {
    return parseClusterConfig(raw, path, dirname(path));
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

/** The flag operator commands take to call with the admin certificate instead of the cluster file's. */
export const TLS_DIR_FLAG = {
  "tls-dir": {
    type: "string",
    value: "DIR",
    description:
      'call with the admin certificate `binring certs` wrote there; without it, the cluster file\'s "tls"',
  },
} as const;

/** The admin certificate in tlsDir, else the cluster file's TLS files (else plaintext); checked now. */
export function callerTls(tlsDir: string | undefined, config: ClusterConfig): TlsFiles | undefined {
  const files = tlsDir === undefined ? config.tls : roleFiles(tlsDir, "admin");
  if (!files) return undefined;
  try {
    tlsIdentity(files);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  return files;
}
