import { afterEach, describe, expect, it, vi } from "vitest";
import { TurnBatch } from "../src/turn-batch.js";

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

it("hands over everything added in one turn as one batch, once", async () => {
  const batches: number[][] = [];
  const batch = new TurnBatch<number>((items) => batches.push(items));
  for (let i = 0; i < 5; i++) batch.add(i);
  await Promise.resolve();
  batch.add(5);
  expect(batches).toEqual([]);
  await nextTurn();
  expect(batches).toEqual([[0, 1, 2, 3, 4, 5]]);
  batch.add(6);
  await nextTurn();
  expect(batches).toEqual([[0, 1, 2, 3, 4, 5], [6]]);
});

it("what is added while a batch is handed over goes in the next batch", async () => {
  const batches: string[][] = [];
  const batch: TurnBatch<string> = new TurnBatch((items) => {
    batches.push(items);
    if (items.includes("first")) batch.add("second");
  });
  batch.add("first");
  await nextTurn();
  await nextTurn();
  expect(batches).toEqual([["first"], ["second"]]);
});

it("take() removes what is queued, and nothing is handed over for it", async () => {
  const batches: number[][] = [];
  const batch = new TurnBatch<number>((items) => batches.push(items));
  batch.add(1);
  batch.add(2);
  expect(batch.take()).toEqual([1, 2]);
  await nextTurn();
  expect(batches).toEqual([]);
});

describe("holding while the consumer is busy", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("holds batches while hold() says so, and hands them over as one after resume()", async () => {
    const batches: number[][] = [];
    let busy = true;
    const batch = new TurnBatch<number>((items) => batches.push(items), { hold: () => busy });
    batch.add(1);
    await nextTurn();
    batch.add(2);
    await nextTurn();
    expect(batches).toEqual([]);
    batch.resume();
    await nextTurn();
    expect(batches).toEqual([]);
    busy = false;
    batch.resume();
    await nextTurn();
    expect(batches).toEqual([[1, 2]]);
  });

  it("hands a held batch over after maxHoldMs even without resume()", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const batches: number[][] = [];
    const batch = new TurnBatch<number>((items) => batches.push(items), { hold: () => true, maxHoldMs: 50 });
    batch.add(1);
    await nextTurn();
    vi.advanceTimersByTime(49);
    batch.add(2);
    await nextTurn();
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(batches).toEqual([[1, 2]]);
    batch.add(3);
    await nextTurn();
    vi.advanceTimersByTime(50);
    expect(batches).toEqual([[1, 2], [3]]);
  });

  it("take() empties a held batch and cancels its timer", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const batches: number[][] = [];
    const batch = new TurnBatch<number>((items) => batches.push(items), { hold: () => true, maxHoldMs: 50 });
    batch.add(1);
    await nextTurn();
    expect(batch.take()).toEqual([1]);
    vi.advanceTimersByTime(100);
    expect(batches).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
