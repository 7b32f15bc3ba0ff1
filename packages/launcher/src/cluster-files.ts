// The files a local cluster writes for the processes it starts and for whoever
// uses it: the cluster file, and secrets only its owner may read.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import type { ClusterConfig } from "@binring/core";

/** Writes the cluster file; TLS paths are written relative to it, so the directory can move. */
export function writeClusterFile(path: string, config: ClusterConfig): void {
  const { tls, ...rest } = config;
  const from = dirname(path);
  const written: ClusterConfig = tls
    ? {
        ...rest,
        tls: { ca: relative(from, tls.ca), cert: relative(from, tls.cert), key: relative(from, tls.key) },
      }
    : rest;
  mkdirSync(from, { recursive: true });
  writeFileSync(path, `${JSON.stringify(written, null, 2)}\n`);
}

/** Writes a file only its owner can read. */
export function writeSecret(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${content}\n`, { mode: 0o600 });
}
