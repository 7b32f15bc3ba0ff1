// A piece of copying work a keeper owes: the repair after a death, or the fill
// of a backend that came back. Each is recorded as an intent (intent-log.ts)
// before its state change is published.
import type { CopyProgress } from "./copier.js";
import type { Intent } from "./intent-log.js";

export interface RepairJob {
  /** The id of its intent in the keeper log. */
  id: string;
  kind: "repair" | "fill";
  /** The backend that died (repair) or is being filled (fill). */
  backend: string;
  /** Backends in placement before the change. */
  wasLive: ReadonlySet<string>;
  attempts: number;
  /** Found unfinished in the log when this keeper took the backend over. */
  recovered: boolean;
}

export interface RunningRepair {
  job: RepairJob;
  startedAt: number;
  progress: CopyProgress;
}

export interface CompletedRepair {
  id: string;
  kind: string;
  backend: string;
  entries: number;
  ms: number;
  recovered: boolean;
}

export function jobFromIntent(intent: Intent): RepairJob {
  return {
    id: intent.id,
    kind: intent.kind,
    backend: intent.backend,
    wasLive: new Set(intent.wasLive),
    attempts: 0,
    recovered: true,
  };
}

export function without(set: ReadonlySet<string>, item: string): Set<string> {
  const copy = new Set(set);
  copy.delete(item);
  return copy;
}
