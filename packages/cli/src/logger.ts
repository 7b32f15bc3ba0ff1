// The root logger of a binring process: JSON lines on stdout (pino), written
// synchronously. A binring process logs events, not requests, so a blocking
// write costs little; and pino's default asynchronous stdout flushes at exit,
// which never returned once stdout's reader had gone (EPIPE is retried
// forever there), leaving a process that ignored SIGTERM.
import { destination, type Logger, pino } from "pino";

export function createLogger(component: string, level = process.env.BINRING_LOG_LEVEL ?? "info"): Logger {
  return pino({ level, base: { component, pid: process.pid } }, destination({ dest: 1, sync: true }));
}
