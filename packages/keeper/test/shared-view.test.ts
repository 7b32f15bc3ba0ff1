// The merged view: same epoch means same content, merges converge, and an
// epoch at or above a fence always includes the change fenced for.
import { describe, expect, it } from "vitest";
import { type PublishedState, SharedView } from "../src/shared-view.js";

const [x, y, z] = ["10.0.0.1:7100", "10.0.0.2:7100", "10.0.0.3:7100"];

function contentOf(view: SharedView): string {
  return JSON.stringify(
    view.entries().sort(([a], [b]) => (a < b ? -1 : 1)),
    (_k, v) => (typeof v === "bigint" ? v.toString() : v),
  );
}

function exchange(from: SharedView, to: SharedView): void {
  to.merge(from.epoch, new Map(from.entries()));
}

describe("SharedView", () => {
  it("mints a larger epoch for every change of its own", () => {
    const view = new SharedView("k0", 0, 1);
    const first = view.publish(x, "ready", "i1");
    const second = view.publish(x, "dead", "i1");
    expect(second).toBeGreaterThan(first);
    expect(view.get(x)).toMatchObject({ state: "dead", version: 2n, by: "k0" });
  });

  it("adopts a peer's epoch only together with exactly its content", () => {
    const a = new SharedView("k0", 0, 1);
    const b = new SharedView("k1", 1, 2);
    a.publish(x, "ready", "i1");
    expect(b.merge(a.epoch, new Map(a.entries()))).toBe("adopted");
    expect(b.epoch).toBe(a.epoch);
    expect(contentOf(b)).toBe(contentOf(a));
  });

  it("converges on one epoch and one content after concurrent changes in two slices", () => {
    const a = new SharedView("k0", 0, 1);
    const b = new SharedView("k1", 1, 2);
    const c = new SharedView("k2", 2, 3);
    a.publish(x, "dead", "i1");
    b.publish(y, "filling", "i2");
    const seen = new Map<bigint, string>();
    const record = (view: SharedView) => {
      const content = contentOf(view);
      expect(seen.get(view.epoch) ?? content, `epoch ${view.epoch} stands for one content`).toBe(content);
      seen.set(view.epoch, content);
    };
    for (let round = 0; round < 4; round++) {
      for (const [from, to] of [
        [a, b],
        [b, c],
        [c, a],
        [b, a],
        [a, c],
      ] as const) {
        exchange(from, to);
        record(from);
        record(to);
      }
    }
    expect(new Set([a.epoch, b.epoch, c.epoch]).size).toBe(1);
    expect(contentOf(b)).toBe(contentOf(a));
    expect(contentOf(c)).toBe(contentOf(a));
    expect(a.get(x)?.state).toBe("dead");
    expect(a.get(y)?.state).toBe("filling");
  });

  it("once every keeper merged a change, every epoch at or above the fence includes it", () => {
    const a = new SharedView("k0", 0, 1);
    const b = new SharedView("k1", 1, 2);
    // b has been busy: its epochs are ahead of a's.
    for (let i = 0; i < 5; i++) b.publish(y, i % 2 ? "ready" : "filling", "i2");
    a.publish(x, "dead", "i1");
    // The fence: a beats b, b merges and answers, a merges the answer.
    exchange(a, b);
    exchange(b, a);
    const fence = a.epoch;
    expect(b.epoch).toBeLessThanOrEqual(fence);
    // Every later epoch, minted by either, still holds x dead.
    b.publish(y, "ready", "i3");
    a.publish(z, "ready", "i4");
    for (const view of [a, b]) {
      if (view.epoch >= fence) expect(view.get(x)?.state).toBe("dead");
    }
  });

  it("keeps the higher version of a backend, and breaks a tie by keeper", () => {
    const a = new SharedView("k0", 0, 1);
    const entry = (version: bigint, by: string, state: PublishedState["state"]): PublishedState => ({
      state,
      version,
      incarnation: "i",
      by,
      repairing: false,
    });
    a.merge(1n << 24n, new Map([[x, entry(3n, "k1", "dead")]]));
    a.merge(2n << 24n, new Map([[x, entry(2n, "k2", "ready")]]));
    expect(a.get(x)?.state).toBe("dead");
    a.merge(3n << 24n, new Map([[x, entry(3n, "k2", "filling")]]));
    expect(a.get(x)?.state).toBe("filling");
  });

  it("mints above every epoch a backend reported, so a restarted keeper never reuses one", () => {
    const view = new SharedView("k0", 0, 1);
    view.observe(1000n << 24n);
    expect(view.publish(x, "ready", "i")).toBeGreaterThan(1000n << 24n);
  });
});
