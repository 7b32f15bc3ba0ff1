// What a chaos run takes and what it reports: its options, its progress
// while it runs, and its result.
import type { BinClientOptions } from "@binring/client";
import type { TlsFiles } from "@binring/core";
import type { Logger } from "pino";
import type { ClusterControl } from "./cluster-control.js";
import type { FuzzCounts } from "./fuzzer.js";
import type { FaultKind } from "./network-schedule.js";
import type { WorkloadCounts, WorkloadKeys } from "./workload.js";

export interface ChaosOptions {
  backends: string[];
  keepers: string[];
  /** The cluster's processes, when this run owns them; without it no fault is injected. */
  control?: ClusterControl;
  /** How long the workload runs (faults stop at the end). */
  durationMs: number;
  /** Mean time between faults. @default 5000 */
  faultEveryMs?: number;
  /**
   * Which faults to inject: network ones need `control.network` (processes
   * in namespaces of their own). @default process faults only
   */
  faults?: ReadonlySet<FaultKind>;
  seed: number;
  /** Where history.jsonl is written. */
  outDir: string;
  /** @default 16 */
  processes?: number;
  /** @default 4 bins ("b0".."b3") with string keys k0..k3 and list keys l0..l3 */
  keys?: WorkloadKeys;
  /** Options for the workload's clients (deadlines; the test-only sabotage). */
  clientOptions?: Partial<BinClientOptions>;
  /** Longest wait for the cluster to be ready before the run and after healing. @default 120000 */
  settleTimeoutMs?: number;
  /** The client certificate every caller of the run presents (workload, fuzzer, status reads). @default plaintext */
  tls?: TlsFiles;
  /** Run a hostile caller (fuzzer.ts) against every backend while the workload runs. @default false */
  fuzz?: boolean;
  /** Called every few seconds while the run goes. */
  onProgress?: (progress: ChaosProgress) => void;
  /** @default a silent logger */
  logger?: Logger;
}

export interface ChaosProgress {
  phase: "waiting for a ready cluster" | "chaos" | "healing" | "final reads";
  elapsedMs: number;
  durationMs: number;
  counts: WorkloadCounts;
  faults: number;
  /** How many of `faults` were network faults. */
  networkFaults: number;
  /** Calls the fuzzer made, when it runs. */
  fuzz?: FuzzCounts;
  /** Impaired processes, e.g. "backend-2 (killed)". */
  impaired: string[];
}

export interface ChaosResult {
  historyPath: string;
  counts: WorkloadCounts;
  faults: number;
  /** How many of `faults` were network faults. */
  networkFaults: number;
  /** Calls the fuzzer made, when it ran. */
  fuzz?: FuzzCounts;
  /** From the end of the chaos phase until every backend was ready again. */
  healMs: number;
}

export const DEFAULT_KEYS: WorkloadKeys = {
  bins: ["b0", "b1", "b2", "b3"],
  stringKeys: ["k0", "k1", "k2", "k3"],
  listKeys: ["l0", "l1", "l2", "l3"],
};
