// Generates a realistic history that is linearizable by construction: each operation takes
// effect at a random point between its invoke and complete, and results come from applying the
// effects in that order to an in-memory store. Some operations end failed or unknown (their
// effect applied or not). Seeded, so a failing test replays.
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import type { FinalRead, History, Operation, OpKind } from "../src/history.js";

export interface SimulationOptions {
  seed?: number;
  processes?: number;
  durationMs?: number;
  bins?: number;
  /** String keys and list keys per bin. */
  keysPerBin?: number;
  /** Share of operations that end unknown, and again that end failed. */
  indefiniteRate?: number;
}

const KIND_WEIGHTS: [OpKind, number][] = [
  ["set", 25],
  ["get", 30],
  ["listAppend", 15],
  ["listRemove", 5],
  ["listGet", 15],
  ["clock", 10],
];

/** Seeded uniform [0, 1): the same seed, the same sequence, so a failing test replays. */
export function seededRandom(seed: number): () => number {
  const generator = xoroshiro128plus(seed);
  return () => uniformFloat64(generator);
}

export function simulateHistory(options: SimulationOptions = {}): History {
  const rand = seededRandom(options.seed ?? 1);
  const processes = options.processes ?? 16;
  const durationMs = options.durationMs ?? 60_000;
  const bins = options.bins ?? 5;
  const keysPerBin = options.keysPerBin ?? 5;
  const indefiniteRate = options.indefiniteRate ?? 0.002;
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
  const totalWeight = KIND_WEIGHTS.reduce((sum, [, w]) => sum + w, 0);
  const pickKind = (): OpKind => {
    let roll = rand() * totalWeight;
    for (const [kind, weight] of KIND_WEIGHTS) {
      roll -= weight;
      if (roll < 0) return kind;
    }
    return "get";
  };

  interface Planned {
    op: Operation;
    effect: number;
    applies: boolean;
  }
  const planned: Planned[] = [];
  const appendedTo = new Map<string, string[]>();
  let id = 0;
  for (let process = 0; process < processes; process++) {
    for (let time = rand() * 10; time < durationMs; ) {
      const kind = pickKind();
      const bin = `b${Math.floor(rand() * bins)}`;
      const slow = rand() < 0.01;
      const latency = slow ? 50 + rand() * 450 : 0.3 + -Math.log(1 - rand()) * 1.5;
      const op: Operation = {
        id: ++id,
        process,
        op: kind,
        bin,
        invoke: time,
        complete: time + latency,
        status: "ok",
      };
      if (kind !== "clock")
        op.key = `${kind.startsWith("list") ? "l" : "k"}${Math.floor(rand() * keysPerBin)}`;
      const listId = `${bin}/${op.key}`;
      if (kind === "set" || kind === "listAppend")
        op.value = rand() < 0.03 && kind === "set" ? "" : `p${process}-${id}`;
      if (kind === "listAppend") appendedTo.set(listId, [...(appendedTo.get(listId) ?? []), op.value!]);
      if (kind === "listRemove") op.value = pick(appendedTo.get(listId) ?? [`p${process}-${id}`]);
      const roll = rand();
      let applies = true;
      if (roll < 2 * indefiniteRate) {
        op.status = roll < indefiniteRate ? "unknown" : "fail";
        op.error = op.status === "unknown" ? "deadline exceeded" : "UNAVAILABLE";
        op.complete = time + (op.status === "unknown" ? 1000 : latency);
        applies = rand() < 0.5;
      }
      planned.push({ op, effect: time + rand() * latency, applies });
      time = op.complete + -Math.log(1 - rand()) * 15;
    }
  }

  const strings = new Map<string, string | null>();
  const lists = new Map<string, string[]>();
  let clock = 1_000_000n;
  for (const { op, applies } of [...planned].sort((a, b) => a.effect - b.effect)) {
    if (!applies) continue;
    const id = `${op.bin}/${op.key}`;
    let result: Operation["result"];
    switch (op.op) {
      case "set":
        strings.set(id, op.value === "" ? null : op.value!);
        result = true;
        break;
      case "get":
        result = strings.get(id) ?? null;
        break;
      case "listAppend":
        lists.set(id, [...(lists.get(id) ?? []), op.value!]);
        result = true;
        break;
      case "listRemove": {
        const before = lists.get(id) ?? [];
        const after = before.filter((item) => item !== op.value);
        lists.set(id, after);
        result = before.length - after.length;
        break;
      }
      case "listGet":
        result = [...(lists.get(id) ?? [])];
        break;
      case "clock":
        result = String(clock++);
        break;
    }
    if (op.status === "ok") op.result = result;
  }
  const ops = planned.map((p) => p.op).sort((a, b) => a.invoke - b.invoke);
  const finals: FinalRead[] = [];
  for (let b = 0; b < bins; b++) {
    for (let k = 0; k < keysPerBin; k++) {
      finals.push({ bin: `b${b}`, key: `k${k}`, kind: "string", value: strings.get(`b${b}/k${k}`) ?? null });
      finals.push({ bin: `b${b}`, key: `l${k}`, kind: "list", value: lists.get(`b${b}/l${k}`) ?? [] });
    }
  }
  const faults = Array.from({ length: Math.floor(durationMs / 5000) }, (_, i) => ({
    time: (i + 1) * 5000,
    action: i % 2 === 0 ? "kill-backend" : "restart-backend",
    target: `backend-${Math.floor(i / 2) % 6}`,
  }));
  return { meta: { seed: options.seed ?? 1, processes }, ops, faults, finals };
}

/** The history as the JSON lines a workload writes. */
export function historyLines(history: History): string {
  const out = [JSON.stringify({ type: "meta", ...history.meta })];
  const events: [number, string][] = [
    ...history.ops.map((op): [number, string] => [op.invoke, JSON.stringify({ type: "op", ...op })]),
    ...history.faults.map((fault): [number, string] => [
      fault.time,
      JSON.stringify({ type: "fault", ...fault }),
    ]),
  ];
  events.sort((a, b) => a[0] - b[0]);
  out.push(...events.map(([, line]) => line));
  out.push(...history.finals.map((final) => JSON.stringify({ type: "final", ...final })));
  return `${out.join("\n")}\n`;
}
