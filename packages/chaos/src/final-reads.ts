// The final reads of a chaos run: once the cluster has healed, a fresh client
// (no marks, no view history) reads every key the workload touched, so the
// checkers can tell which acknowledged writes survived.
import { BinClient } from "@binring/client";
import type { TlsFiles } from "@binring/core";
import type { HistoryWriter } from "./history.js";
import type { WorkloadKeys } from "./workload.js";

export async function readFinalState(
  cluster: { backends: string[]; keepers: string[]; tls?: TlsFiles },
  keys: WorkloadKeys,
  history: HistoryWriter,
): Promise<void> {
  const client = new BinClient({ backends: cluster.backends, keepers: cluster.keepers, tls: cluster.tls });
  try {
    for (const name of keys.bins) {
      const bin = client.bin(name);
      for (const key of keys.stringKeys) {
        history.write({ type: "final", bin: name, key, kind: "string", value: await bin.get(key) });
      }
      for (const key of keys.listKeys) {
        history.write({ type: "final", bin: name, key, kind: "list", value: await bin.listGet(key) });
      }
    }
  } finally {
    await client.close();
  }
}
