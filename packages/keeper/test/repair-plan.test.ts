// The repair planner: who receives which stretches, from whom, in the three
// death cases and on rejoin; and what stand-ins drop afterwards.
import { HashRing, pointInRange, ringPoint } from "@binring/core";
import { describe, expect, it } from "vitest";
import { planCopies, planDrops } from "../src/repair-plan.js";

const ids = Array.from({ length: 6 }, (_, i) => `10.0.0.${i}:7000`);
const ring = new HashRing(ids.map((id) => ({ id })));
const all = (id: string) => ids.includes(id);
const without =
  (...dead: string[]) =>
  (id: string) =>
    all(id) && !dead.includes(id);
const bins = Array.from({ length: 3000 }, (_, i) => `bin-${i}`);

function covers(ranges: { start: number; end: number }[], bin: string): boolean {
  return ranges.some((r) => pointInRange(ringPoint(bin), r.start, r.end));
}

/** Three zones of three. */
const zoned = new HashRing(
  Array.from({ length: 9 }, (_, i) => ({ id: `10.1.0.${i}:7000`, zone: `zone-${i % 3}` })),
);
const zonedIds = zoned.members.map((m) => m.id);

describe("planCopies after a death", () => {
  it.each([
    ["second backup", 2],
    ["first backup", 1],
    ["primary", 0],
  ])("the dead one was a bin's %s: the new third replica gets it from both survivors", (_case, position) => {
    const dead = ids[0]!;
    const tasks = planCopies(ring, all, without(dead));
    const affected = bins.filter((bin) => ring.replicasFor(bin).indexOf(dead) === position);
    expect(affected.length).toBeGreaterThan(0);
    for (const bin of affected) {
      const before = ring.replicasFor(bin);
      const after = ring.replicasFor(bin, without(dead));
      const newcomer = after.find((id) => !before.includes(id))!;
      const task = tasks.find((t) => t.target === newcomer && covers(t.ranges, bin));
      expect(task, bin).toBeDefined();
      expect(task!.sources.sort()).toEqual(before.filter((id) => id !== dead).sort());
    }
  });

  it("plans nothing for bins the dead backend did not hold", () => {
    const dead = ids[0]!;
    const tasks = planCopies(ring, all, without(dead));
    for (const bin of bins.filter((b) => !ring.replicasFor(b).includes(dead))) {
      expect(tasks.some((t) => covers(t.ranges, bin))).toBe(false);
    }
  });
});

describe("planCopies and planDrops on rejoin", () => {
  it("fills the returning backend from every holder, including its stand-in, which then drops", () => {
    const back = ids[3]!;
    const tasks = planCopies(ring, without(back), all);
    expect(new Set(tasks.map((t) => t.target))).toEqual(new Set([back]));
    const drops = planDrops(ring, without(back), all);
    for (const bin of bins.filter((b) => ring.replicasFor(b).includes(back))) {
      const standIn = ring.replicasFor(bin, without(back)).find((id) => !ring.replicasFor(bin).includes(id))!;
      const task = tasks.find((t) => covers(t.ranges, bin))!;
      expect(task.sources).toContain(standIn);
      expect(drops.some((d) => d.backend === standIn && covers(d.ranges, bin))).toBe(true);
    }
    // Nobody drops a stretch it still holds.
    for (const drop of drops) {
      for (const bin of bins.filter((b) => covers(drop.ranges, b))) {
        expect(ring.replicasFor(bin)).not.toContain(drop.backend);
      }
    }
  });
});

describe("repair plans on a zoned ring", () => {
  // Three zones of three: when a zone loses members, placement may reshuffle
  // more than one copy of a bin, and the plan must still cover every newcomer.
  const live =
    (...dead: string[]) =>
    (id: string) =>
      zonedIds.includes(id) && !dead.includes(id);

  it.each([
    ["one backend dies", [zonedIds[0]!]],
    ["a whole zone dies", [zonedIds[0]!, zonedIds[3]!, zonedIds[6]!]],
  ])("%s: every newcomer gets each bin from every live holder, leavers drop it", (_case, dead) => {
    const wasLive = live();
    const isLive = live(...dead);
    const copies = planCopies(zoned, wasLive, isLive);
    const drops = planDrops(zoned, wasLive, isLive);
    for (const bin of bins) {
      const before = zoned.replicasFor(bin, wasLive);
      const after = zoned.replicasFor(bin, isLive);
      expect(new Set(after.map((id) => zoned.members.find((m) => m.id === id)!.zone)).size).toBe(
        dead.length === 3 ? 2 : 3,
      );
      for (const target of after.filter((id) => !before.includes(id))) {
        const sources = [...new Set([...before, ...after])]
          .filter((id) => id !== target && isLive(id))
          .sort();
        const task = copies.find((t) => t.target === target && covers(t.ranges, bin));
        expect(task?.sources, bin).toEqual(sources);
      }
      const targets = copies.filter((t) => covers(t.ranges, bin)).map((t) => t.target);
      expect(targets.sort()).toEqual(after.filter((id) => !before.includes(id)).sort());
      for (const leaver of before.filter((id) => !after.includes(id) && isLive(id))) {
        expect(drops.some((d) => d.backend === leaver && covers(d.ranges, bin))).toBe(true);
      }
    }
  });
});

describe("planCopies names a stretch's first holder", () => {
  // The replica reads go to before the change, when it is still first of the
  // replicas that stay: a copy may read it alone while it is ready.
  const seven = [...ids, "10.0.0.6:7000"];
  const grown = new HashRing(seven.map((id) => ({ id })));
  const scenarios: [string, HashRing, (id: string) => boolean, (id: string) => boolean][] = [
    ["a death", ring, all, without(ids[0]!)],
    ["a return", ring, without(ids[3]!), all],
    ["an added member", grown, (id) => ids.includes(id), (id) => seven.includes(id)],
    ["a zone's member dying", zoned, (id) => zonedIds.includes(id), (id) => id !== zonedIds[0]],
  ];

  it.each(scenarios)(
    "%s: the first replica before, if it stays first among the holders",
    (_case, r, wasLive, isLive) => {
      const tasks = planCopies(r, wasLive, isLive);
      for (const bin of bins) {
        const before = r.replicasFor(bin, wasLive);
        const after = r.replicasFor(bin, isLive);
        const staying = after.filter((id) => before.includes(id));
        const expected = isLive(before[0]!) && staying[0] === before[0] ? before[0] : undefined;
        for (const task of tasks.filter((t) => covers(t.ranges, bin))) {
          expect(task.firstHolder, bin).toBe(expected);
        }
      }
      expect(tasks.some((task) => task.firstHolder !== undefined)).toBe(true);
    },
  );

  it("names none where the first replica died, and the primary where a backup did", () => {
    const dead = ids[0]!;
    const tasks = planCopies(ring, all, without(dead));
    for (const bin of bins.filter((b) => ring.replicasFor(b).includes(dead))) {
      const before = ring.replicasFor(bin);
      const task = tasks.find((t) => covers(t.ranges, bin))!;
      expect(task.firstHolder, bin).toBe(before[0] === dead ? undefined : before[0]);
    }
  });
});
