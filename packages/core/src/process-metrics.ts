// A server process's own metrics, beside its backend's or keeper's: CPU time,
// memory, heap, open handles, GC pauses and event-loop delay, under the names
// every Node dashboard knows (prom-client's default set). Event-loop delay is
// the one that tells a starved process from a slow store: on a host with more
// runnable work than cores, every process waits tens of milliseconds to run,
// and each call crosses several of them.
import { collectDefaultMetrics, type Registry } from "prom-client";

/**
 * How often the event-loop delay is sampled. Each sample wakes an idle
 * process: prom-client's 10 ms cost an idle Node process about 7 ms of CPU a
 * second here, 50 ms 1.5–3 ms, 200 ms 0.5. At 100 ms a 15-s scrape still has
 * 150 samples for its percentiles (the test suite starts hundreds of
 * processes, mostly idle). A busy process is awake anyway.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

/** Adds the process's metrics to `register`: once per process, since what they measure is the whole process. */
export function addProcessMetrics(register: Registry): void {
  collectDefaultMetrics({ register, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
}
