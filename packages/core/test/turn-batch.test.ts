import { expect, it } from "vitest";
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
