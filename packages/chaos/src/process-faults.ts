// Process faults on a cluster the run owns: SIGKILL (in the ways BackendKill
// names) and SIGSTOP, each undone by a scheduled restart or SIGCONT. Knows
// which backends and keepers are down until they are back.
import type { BackendKill, ClusterControl } from "./cluster-control.js";
import type { PlannedProcessFault } from "./fault-schedule.js";
import type { FaultRecorder } from "./history.js";
import type { Recoveries } from "./recoveries.js";

type Down = "killed" | "paused";

export class ProcessFaults {
  /** Backend index -> how it is down, from its fault until its recovery. */
  readonly backendDown = new Map<number, Down>();
  /** Keeper index -> how it is down. */
  readonly keeperDown = new Map<number, Down>();

  constructor(
    private readonly control: ClusterControl,
    private readonly recoveries: Recoveries,
    private readonly record: FaultRecorder,
  ) {}

  async inject(fault: PlannedProcessFault): Promise<void> {
    const { control } = this;
    switch (fault.action) {
      case "kill-backend":
        await Promise.all(
          fault.targets.map(async (target, i) => {
            const how = fault.how[i]!;
            this.backendDown.set(target, "killed");
            await control.killBackend(target, how);
            this.record(
              "kill-backend",
              `backend-${target}`,
              control.usesRedis ? KILL_DETAIL[how] : IN_MEMORY_KILL_DETAIL,
            );
            this.recoveries.schedule(`backend-${target}`, fault.downMs[i]!, async () => {
              await control.restartBackend(target);
              this.backendDown.delete(target);
              this.record("restart-backend", `backend-${target}`, "not ready until a keeper fills it");
            });
          }),
        );
        return;
      case "pause-backend":
        this.#pause("backend", fault.target, fault.pauseMs);
        return;
      case "kill-keeper":
        this.keeperDown.set(fault.target, "killed");
        await control.killKeeper(fault.target);
        this.record("kill-keeper", `keeper-${fault.target}`, `SIGKILL, back in ${fault.downMs} ms`);
        this.recoveries.schedule(`keeper-${fault.target}`, fault.downMs, async () => {
          await control.restartKeeper(fault.target);
          this.keeperDown.delete(fault.target);
          this.record("restart-keeper", `keeper-${fault.target}`);
        });
        return;
      case "pause-keeper":
        this.#pause("keeper", fault.target, fault.pauseMs);
        return;
    }
  }

  /** Brings back whatever is still down once the scheduled recoveries have run (those that failed). */
  async healAll(): Promise<void> {
    const { control } = this;
    for (const [index, down] of [...this.backendDown]) {
      if (down === "paused") control.resume("backend", index);
      else await control.restartBackend(index);
      this.backendDown.delete(index);
      this.record(down === "paused" ? "resume" : "restart-backend", `backend-${index}`, "heal");
    }
    for (const [index, down] of [...this.keeperDown]) {
      if (down === "paused") control.resume("keeper", index);
      else await control.restartKeeper(index);
      this.keeperDown.delete(index);
      this.record(down === "paused" ? "resume" : "restart-keeper", `keeper-${index}`, "heal");
    }
  }

  /** What is down, e.g. "backend-2 (killed)". */
  describe(): string[] {
    return [
      ...[...this.backendDown].map(([i, down]) => `backend-${i} (${down})`),
      ...[...this.keeperDown].map(([i, down]) => `keeper-${i} (${down})`),
    ];
  }

  /** SIGSTOP now, SIGCONT after `pauseMs` (or at heal). */
  #pause(kind: "backend" | "keeper", target: number, pauseMs: number): void {
    const down = kind === "backend" ? this.backendDown : this.keeperDown;
    const name = `${kind}-${target}`;
    down.set(target, "paused");
    this.control.pause(kind, target);
    this.record("pause", name, `SIGSTOP for ${pauseMs} ms`);
    this.recoveries.schedule(name, pauseMs, async () => {
      this.control.resume(kind, target);
      down.delete(target);
      this.record("resume", name, "SIGCONT");
    });
  }
}

const KILL_DETAIL: Record<BackendKill, string> = {
  backend: "SIGKILL backend only: its redis-server keeps running, it returns stale",
  "with-redis": "SIGKILL backend and redis-server: Redis restarts from its append-only file, stale",
  wipe: "SIGKILL backend and redis-server, Redis files deleted: it returns empty",
  redis: "SIGKILL redis-server only, its files deleted: the backend runs on and finds it empty",
};

/** Any kill of a backend on the in-memory store: its data goes with the process. */
const IN_MEMORY_KILL_DETAIL = "SIGKILL backend: its in-memory store goes with it, it returns empty";
