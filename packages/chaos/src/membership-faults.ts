// Membership faults on a cluster the run owns: a backend added to the ring, or
// one decommissioned and, once the keepers no longer list it, stopped for good.
// Knows which backends are leaving (impaired until they have left) and which
// have left (never a target again).
import type { ClusterControl } from "./cluster-control.js";
import type { PlannedMembershipFault } from "./fault-schedule.js";
import type { FaultRecorder } from "./history.js";
import type { ClusterHealth } from "./keeper-status.js";

export class MembershipFaults {
  /** Backends decommissioned and still listed by the keepers. */
  readonly leaving = new Set<number>();
  /** Backends that left the ring and were stopped. */
  readonly retired = new Set<number>();
  /** The membership faults injected so far: each kind is drawn first until it has been. */
  readonly injected = new Set<PlannedMembershipFault["action"]>();

  constructor(
    private readonly control: ClusterControl,
    private readonly record: FaultRecorder,
  ) {
    if (!control.joinBackend || !control.decommissionBackend || !control.retireBackend) {
      throw new Error("membership faults need a cluster that can start backends and change its membership");
    }
  }

  async inject(fault: PlannedMembershipFault): Promise<void> {
    this.injected.add(fault.action);
    if (fault.action === "add-backend") {
      const index = await this.control.joinBackend!();
      this.record("add-backend", `backend-${index}`, `${this.control.backends[index]} joins the ring`);
      return;
    }
    await this.control.decommissionBackend!(fault.target);
    this.leaving.add(fault.target);
    this.record("remove-backend", `backend-${fault.target}`, "leaves the ring once its bins are copied");
  }

  /** Stops every leaving backend that no answering keeper lists any more. */
  async retireLeft(health: ClusterHealth): Promise<void> {
    if (health.keepers.length === 0) return;
    for (const index of [...this.leaving]) {
      if (health.states.has(this.control.backends[index]!)) continue;
      await this.control.retireBackend!(index);
      this.leaving.delete(index);
      this.retired.add(index);
      this.record("retire-backend", `backend-${index}`, "left the ring: stopped");
    }
  }

  describe(): string[] {
    return [...this.leaving].map((i) => `backend-${i} (leaving)`);
  }
}
