// A load-generating child process (forked by LoadProcesses): connects to the
// system described in argv[2], runs the closed loops its parent asks for over
// IPC, and sends back each run's HDR histogram encoded, so the parent merges
// the histograms of every process instead of averaging percentiles.

import { measureRaw, type WorkloadName, workloadOperation } from "@binring/load";
import * as hdr from "hdr-histogram-js";
import { connect, type SystemSpec } from "./systems.js";

export interface RunRequest {
  type: "run";
  workload: WorkloadName;
  concurrency: number;
  durationMs: number;
  warmupMs: number;
}

export interface RunReply {
  type: "result";
  histogram: string;
  completed: number;
  errors: number;
  durationMs: number;
}

const spec = JSON.parse(process.argv[2] ?? "") as SystemSpec;
const client = connect(spec);

process.on("message", (message: RunRequest | { type: "stop" }) => {
  if (message.type === "stop") {
    void client.close().finally(() => process.disconnect());
    return;
  }
  void measureRaw(workloadOperation(client, message.workload), message).then((raw) => {
    const reply: RunReply = {
      type: "result",
      histogram: hdr.encodeIntoCompressedBase64(raw.histogram),
      completed: raw.completed,
      errors: raw.errors,
      durationMs: raw.durationMs,
    };
    raw.histogram.destroy();
    process.send?.(reply);
  });
});
process.send?.({ type: "ready" });
