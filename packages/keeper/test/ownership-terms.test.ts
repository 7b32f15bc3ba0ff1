// A keeper's owner terms (ownership-terms.ts): claimed above the largest term
// a backend reported, kept while the backend stays in the slice, forgotten
// when it leaves, and never one at or past the epoch ceiling.
import { describe, expect, it } from "vitest";
import { OwnershipTerms } from "../src/ownership-terms.js";
import { epochCounter } from "../src/shared-view.js";

const STAMP = (7n << 4n) | 1n;
const OTHER = (5n << 24n) | (9n << 4n) | 2n;

describe("owner terms", () => {
  it("claim above the largest term reported, in this keeper's stamp, and keep it while it holds", () => {
    const terms = new OwnershipTerms(() => STAMP);
    terms.reported("b", OTHER);
    const term = terms.termFor("b", true);
    expect(epochCounter(term)).toBe(6n);
    expect(term & 0xffffffn).toBe(STAMP);
    terms.reported("b", term);
    expect(terms.termFor("b", true)).toBe(term);
  });

  it("claim again above another keeper's claim reported since", () => {
    const terms = new OwnershipTerms(() => STAMP);
    const first = terms.termFor("b", true);
    const taken = (epochCounter(first) + 3n) << 24n;
    terms.reported("b", taken);
    const second = terms.termFor("b", true);
    expect(second > taken).toBe(true);
  });

  it("send no term for a backend outside the slice, and claim anew when it comes back", () => {
    const terms = new OwnershipTerms(() => STAMP);
    const first = terms.termFor("b", true);
    expect(terms.termFor("b", false)).toBe(0n);
    terms.reported("b", first);
    expect(terms.termFor("b", true) > first).toBe(true);
  });

  it("ignore a reported term at or past 2^62", () => {
    const terms = new OwnershipTerms(() => STAMP);
    terms.reported("b", 2n ** 64n - 1n);
    expect(epochCounter(terms.termFor("b", true))).toBe(1n);
  });
});
