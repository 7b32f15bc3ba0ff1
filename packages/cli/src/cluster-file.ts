// Reads and validates the cluster file (binring.json) for the CLI.
import { readFileSync } from "node:fs";
import { type ClusterConfig, parseClusterConfig } from "@binring/core";
import { CliError } from "./cli-error.js";

export function readClusterFile(path: string): ClusterConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new CliError(`cannot read cluster file ${path}: ${(error as Error).message}`);
  }
  try {
    return parseClusterConfig(raw, path);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}
