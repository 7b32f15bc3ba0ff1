// How many bins a Scan reads per round: about a batch's worth of entries at the rate seen so far.
import { describe, expect, it } from "vitest";
import { BINS_PER_ROUND, binsForRound } from "../src/redis-scan.js";

describe("binsForRound", () => {
  it("reads one bin first, knowing nothing of their size", () => {
    expect(binsForRound(0, 0, 2000)).toBe(1);
  });
  it("reads about a batch's worth of entries once it has seen some", () => {
    expect(binsForRound(10, 2000, 2000)).toBe(10);
    expect(binsForRound(1, 200, 2000)).toBe(10);
    expect(binsForRound(4, 50, 100)).toBe(8);
  });
  it("reads one bin at a time while bins are larger than a batch", () => {
    expect(binsForRound(3, 30_000, 2000)).toBe(1);
  });
  it("reads at most BINS_PER_ROUND, also while bins seen so far were empty", () => {
    expect(binsForRound(5, 5, 2000)).toBe(BINS_PER_ROUND);
    expect(binsForRound(5, 0, 2000)).toBe(BINS_PER_ROUND);
  });
});
