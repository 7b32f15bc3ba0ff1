// @binring/load: closed-loop load with HDR latency histograms, and the workloads it runs.
// The benchmarks (test/src/bench) and `binring bench` share it.
export {
  type Measurement,
  type MeasureOptions,
  measure,
  measureRaw,
  newHistogram,
  type RawMeasurement,
  summarise,
} from "./closed-loop.js";
export {
  type BinSource,
  binLoadTarget,
  KEYSPACE,
  keyOf,
  type LoadTarget,
  preload,
  VALUE,
  WORKLOADS,
  type WorkloadName,
  workloadOperation,
} from "./workloads.js";
