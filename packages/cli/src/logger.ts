// The root logger of a binring process: JSON lines on stdout (pino).
import { type Logger, pino } from "pino";

export function createLogger(component: string, level = process.env.BINRING_LOG_LEVEL ?? "info"): Logger {
  return pino({ level, base: { component, pid: process.pid } });
}
